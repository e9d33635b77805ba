import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AuthModule } from './auth/auth.module';
import { MerchantService } from './auth/merchant.service';
import { UserService } from './auth/user.service';
import { AppConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { ConfigError } from './common/config/env';
import { DatabaseModule } from './common/database/database.module';
import { DomainError } from './common/errors/domain-error';
import { SigningSecretService } from './auth/signing-secret.service';
import { SecretsModule } from './common/secrets/secrets.module';
import { rotateSecretsKey } from './common/secrets/rotate-secrets-key';
import { importRates, readRateFile } from './checkout/rates/rate-import';
import { TransactionRunner } from './common/database/transaction-runner';
import { Scheduler } from './common/scheduler/scheduler.service';
import { describeJobRuns, JOB_MODULES } from './scheduled-jobs';
import { ClockModule } from './common/clock/clock.module';
import { OrderPaymentService } from './orders/order-payment.service';
import { OrderService } from './orders/order.service';
import { OrdersModule } from './orders/orders.module';
import { NotificationDeliveryModule } from './notifications/notification-delivery.module';
import { NotificationDeliveryService } from './notifications/notification-delivery.service';
import { parseRfc3339 } from './checkout/signed/request-timestamp';
import { RemittanceModule } from './remittance/remittance.module';
import { RemittanceService } from './remittance/remittance.service';
import { remittanceRunView } from './remittance/report.views';

const USAGE = `usage:
  cli merchant create --name NAME [--id UUID] [--remittance-currency USD] [--notify-url URL] [--rate-mode guaranteed|spot]
  cli merchant rotate-secret --merchant MERCHANT_ID
  cli merchant update --id MERCHANT_ID --notify-url URL   (--notify-url "" removes it)
  cli user create --username U (--password P | --password-stdin) (--merchant MERCHANT_ID | --role admin) [--role merchant|readonly|admin]
  cli secrets rotate-key
  cli rates import FILE
  cli jobs run                 (runs the scheduled jobs that are due now, once)
  cli notifications deliver    (sends the notifications that are due now, once: for SCHEDULER_ENABLED=false everywhere)
  cli orders funds-received --order ORDER_ID   (sandbox: the bank transfer or voucher of a Pending order was paid)
  cli orders review --order ORDER_ID (--approve | --decline)   (settles the fraud review of an order UnderReview)
  cli remittance run [--merchant MERCHANT_ID] [--to ISO-TIME]   (settles what was processed and refunded up to --to, default now)`;

type Command = (app: { get<T>(type: new (...args: never[]) => T): T }, args: string[]) => Promise<object>;

const COMMANDS: Record<string, Command> = {
  'jobs run': async (app, args) => {
    parseArgs({ args, options: {} });
    return describeJobRuns(await app.get(Scheduler).runDue());
  },
  'notifications deliver': async (app, args) => {
    parseArgs({ args, options: {} });
    return { Delivered: await app.get(NotificationDeliveryService).deliverDue() };
  },
  'orders funds-received': async (app, args) => {
    const { values } = parseArgs({ args, options: { order: { type: 'string' } } });
    if (!values.order) throw new UsageError('--order is required');
    if (app.get(AppConfig).environment !== 'sandbox') throw new UsageError('orders funds-received is a sandbox command: production learns of funds from its processor');
    const order = await app.get(OrderPaymentService).fundsReceived(values.order);
    return { OrderId: order.id, OrderState: order.state };
  },
  'orders review': async (app, args) => {
    const { values } = parseArgs({ args, options: { order: { type: 'string' }, approve: { type: 'boolean' }, decline: { type: 'boolean' } } });
    if (!values.order || values.approve === values.decline) throw new UsageError('--order and exactly one of --approve and --decline are required');
    const order = await app.get(OrderService).settleReview(values.order, values.approve === true);
    return { OrderId: order.id, OrderState: order.state, UnderReview: order.underReview };
  },
  'remittance run': async (app, args) => {
    const { values } = parseArgs({ args, options: { merchant: { type: 'string' }, to: { type: 'string' } } });
    const to = values.to === undefined ? undefined : parseRfc3339(values.to);
    if (to === null) throw new UsageError('--to must be an RFC 3339 time with a zone, e.g. 2025-11-27T00:00:00Z');
    if (values.merchant !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(values.merchant)) {
      throw new UsageError('--merchant must be a merchant id (UUID)');
    }
    const settled = await app.get(RemittanceService).run({ merchantId: values.merchant, to });
    return { Remittances: settled.map(remittanceRunView) };
  },
  'merchant create': async (app, args) => {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        id: { type: 'string' },
        'remittance-currency': { type: 'string' },
        'notify-url': { type: 'string' },
        'rate-mode': { type: 'string' },
      },
    });
    if (!values.name) throw new UsageError('--name is required');
    const { merchant, signingSecret } = await app.get(MerchantService).create({
      name: values.name,
      id: values.id,
      remittanceCurrency: values['remittance-currency'],
      notifyUrl: values['notify-url'],
      rateMode: values['rate-mode'],
    });
    return { MerchantId: merchant.id, Name: merchant.name, SigningSecret: signingSecret };
  },
  'merchant update': async (app, args) => {
    const { values } = parseArgs({ args, options: { id: { type: 'string' }, 'notify-url': { type: 'string' } } });
    if (!values.id || values['notify-url'] === undefined) throw new UsageError('--id and --notify-url are required');
    const merchant = await app.get(MerchantService).updateNotifyUrl(values.id, values['notify-url'] || null);
    return { MerchantId: merchant.id, NotifyUrl: merchant.notifyUrl };
  },
  'merchant rotate-secret': async (app, args) => {
    const { values } = parseArgs({ args, options: { merchant: { type: 'string' } } });
    if (!values.merchant) throw new UsageError('--merchant is required');
    const rotated = await app.get(SigningSecretService).rotate(values.merchant);
    return {
      MerchantId: values.merchant,
      SigningSecret: rotated.secret,
      PreviousSecretValidUntil: rotated.previousValidUntil?.toISOString() ?? null,
    };
  },
  'rates import': async (app, args) => {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError('rates import takes one FILE');
    const table = readRateFile(positionals[0]);
    const imported = await importRates(app.get(TransactionRunner), table);
    return { Imported: imported, AsOf: table.asOf, Base: table.base };
  },
  'secrets rotate-key': async (app, args) => {
    parseArgs({ args, options: {} });
    return rotateSecretsKey(app.get(AppConfig), app.get(SigningSecretService));
  },
  'user create': async (app, args) => {
    const { values } = parseArgs({
      args,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        merchant: { type: 'string' },
        role: { type: 'string' },
      },
    });
    if (values.password !== undefined && values['password-stdin']) throw new UsageError('give --password or --password-stdin, not both');
    // From stdin, the password stays out of the process list and the shell's history.
    const password = values['password-stdin'] ? await passwordFromStdin() : values.password;
    if (!values.username || !password) throw new UsageError('--username and --password (or --password-stdin) are required');
    const user = await app.get(UserService).create({
      username: values.username,
      password,
      merchantId: values.merchant,
      role: values.role,
    });
    return { Username: user.username, MerchantId: user.merchantId, Role: user.role };
  },
};

class UsageError extends Error {}

/** The first line of stdin, without its line ending (as `printf '%s\n' "$PW" | …` or a file gives it). */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin reads the password from a pipe or a file, not a terminal');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0];
}

@Module({})
class CliModule {
  static forRoot(config: AppConfig, extra: Array<new () => unknown> = []) {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, SecretsModule, AuthModule, ...extra] };
  }
}

/** Prints exactly one JSON line on stdout, or a clear error on stderr with a non-zero exit. */
async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(argv.length ? `unknown command: ${name}` : 'no command given');
  const config = AppConfig.fromEnvironment();
  // Only `jobs run` boots the job modules: the other commands must not register (write) job rows.
  const modules = CliModule.forRoot(config, name === 'jobs run' ? JOB_MODULES : name.startsWith('orders ') ? [ClockModule, OrdersModule] : name === 'remittance run' ? [ClockModule, RemittanceModule] : name === 'notifications deliver' ? [ClockModule, NotificationDeliveryModule] : []);
  const app = await NestFactory.createApplicationContext(modules, { logger: false, abortOnError: false });
  try {
    process.stdout.write(`${JSON.stringify(await command(app, argv.slice(2)))}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof UsageError) return `${error.message}\n${USAGE}`;
  if (error instanceof ConfigError) return error.message;
  if (error instanceof DomainError) {
    const details = (error.fieldErrors ?? []).map((f) => `--${f.Field}: ${f.Message}`);
    return details.length ? details.join('\n') : error.message;
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    return `${error.message}\n${USAGE}`;
  }
  return error instanceof Error ? error.message : String(error);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${describe(error)}\n`);
    process.exit(1);
  },
);
