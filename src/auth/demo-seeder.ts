import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { TransactionRunner } from '../common/database/transaction-runner';
import { Merchant } from './merchant.entity';
import { MerchantService } from './merchant.service';
import { hashPassword } from './password-hasher';
import { SigningSecretService } from './signing-secret.service';
import { Role, User } from './user.entity';

/** The sandbox demo account the README tour uses; created only on an empty sandbox database. */
export const DEMO = {
  merchantId: '9a5c3f0e-1d2b-4c6a-8e7f-0b1c2d3e4f50',
  userId: '9a5c3f0e-1d2b-4c6a-8e7f-0b1c2d3e4f51',
  merchantName: 'Demo Shop',
  username: 'demo',
  password: 'demo-password',
};

/** What the seeding found: the account's signing secret, and whether this instance created it. */
export interface DemoAccount {
  createdHere: boolean;
  signingSecret: string;
}

/** The start-up line about the demo account; the same facts whichever instance created it. */
export function demoAccountMessage(account: DemoAccount, apiUrl: string): string {
  const who = account.createdHere ? 'created' : 'another instance starting at the same time created';
  return (
    `Empty sandbox database: ${who} merchant "${DEMO.merchantName}" (MerchantId ${DEMO.merchantId}, ` +
    `SigningSecret ${account.signingSecret}) and user ${DEMO.username} / ${DEMO.password}. ` +
    `Try: curl -u ${DEMO.username}:${DEMO.password} ${apiUrl}/session/<SessionId>`
  );
}

@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('Sandbox');

  constructor(
    private readonly config: AppConfig,
    private readonly merchants: MerchantService,
    private readonly signingSecrets: SigningSecretService,
    private readonly transactions: TransactionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.isSandbox || (await this.merchants.count()) > 0) return;
    const account = await this.seed();
    if (account) this.logger.log(demoAccountMessage(account, `${this.config.publicUrl}/${this.config.currentApiVersion}`));
  }

  /**
   * Merchant, signing secret and user in one transaction, so that instances seeding one empty database
   * together never leave half an account: one commits; the others' inserts then fail on the fixed
   * merchant id or username (on MySQL only once the winner has committed; on SQLite behind its write
   * lock), and they read the secret the winner stored.
   */
  private async seed(): Promise<DemoAccount | null> {
    const passwordHash = await hashPassword(DEMO.password);
    try {
      const signingSecret = await this.transactions.run(async (manager) => {
        await manager.insert(Merchant, demoMerchant());
        const secret = await this.signingSecrets.issue(manager, DEMO.merchantId);
        await manager.insert(User, demoUser(passwordHash));
        return secret;
      });
      return { createdHere: true, signingSecret };
    } catch (error) {
      if (!violatedUniqueIndex(error, { PRIMARY: 'merchant.id', UQ_app_user_username: 'app_user.username' })) throw error;
    }
    const [signingSecret] = await this.signingSecrets.usableSecrets(DEMO.merchantId);
    if (signingSecret) return { createdHere: false, signingSecret };
    // No demo merchant, so the clash was the username: someone made a "demo" user before the first start.
    this.logger.warn(`Sandbox demo account not created: a user named "${DEMO.username}" exists already`);
    return null;
  }
}

function demoMerchant(): Merchant {
  return Object.assign(new Merchant(), {
    id: DEMO.merchantId,
    name: DEMO.merchantName,
    remittanceCurrency: 'USD',
    notifyUrl: null,
    rateMode: 'guaranteed',
  });
}

function demoUser(passwordHash: string): User {
  return Object.assign(new User(), {
    id: DEMO.userId,
    username: DEMO.username,
    passwordHash,
    merchantId: DEMO.merchantId,
    role: Role.Merchant,
  });
}
