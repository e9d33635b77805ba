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

const USAGE = `usage:
  cli merchant create --name NAME [--id UUID] [--remittance-currency USD] [--notify-url URL] [--rate-mode guaranteed|spot]
  cli merchant rotate-secret --merchant MERCHANT_ID
  cli user create --username U --password P (--merchant MERCHANT_ID | --role admin) [--role merchant|readonly|admin]
  cli secrets rotate-key
  cli rates import FILE`;

type Command = (app: { get<T>(type: new (...args: never[]) => T): T }, args: string[]) => Promise<object>;

const COMMANDS: Record<string, Command> = {
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
      options: { username: { type: 'string' }, password: { type: 'string' }, merchant: { type: 'string' }, role: { type: 'string' } },
    });
    if (!values.username || !values.password) throw new UsageError('--username and --password are required');
    const user = await app.get(UserService).create({
      username: values.username,
      password: values.password,
      merchantId: values.merchant,
      role: values.role,
    });
    return { Username: user.username, MerchantId: user.merchantId, Role: user.role };
  },
};

class UsageError extends Error {}

@Module({})
class CliModule {
  static forRoot(config: AppConfig) {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, SecretsModule, AuthModule] };
  }
}

/** Prints exactly one JSON line on stdout, or a clear error on stderr with a non-zero exit. */
async function main(argv: string[]): Promise<number> {
  const command = COMMANDS[argv.slice(0, 2).join(' ')];
  if (!command) throw new UsageError(argv.length ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given');
  const config = AppConfig.fromEnvironment();
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false, abortOnError: false });
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
