import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { violatedUniqueIndex } from '../../common/database/db-errors';
import { TransactionRunner } from '../../common/database/transaction-runner';
import type { CardInput } from './card';
import { CardTokenRecord } from './card-token.entity';
import { AuthorizationRequest, AuthorizationResult, CardToken, PaymentProcessor } from './payment-processor';
import { sandboxBankDetails } from './sandbox-bank-details';
import { SandboxLedgerEntry } from './sandbox-ledger.entity';

/**
 * The sandbox's simulated processor (DESIGN.md section 5). Test cards (any future expiry, any CVC):
 * 4111 1111 1111 1111 and 5555 5555 5555 4444 approve (as does any other valid number);
 * 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 is declined for insufficient funds;
 * 4000 0000 0000 3220 asks for a 3-D Secure challenge. Online methods (PayPal, Pix, iDEAL …) send the
 * shopper to an approval page; offline ones (bank transfer, boleto, OXXO …) wait for the funds.
 * A refund whose amount ends in 13 minor units (10.13, ¥113) fails. An approved payment whose total
 * ends in 66 minor units (10.66) is held for a fraud review (UnderReview), settled with
 * `cli orders review --order ID --approve|--decline`.
 */
export const SANDBOX_CARD_BEHAVIOUR: Readonly<Record<string, string>> = {
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000003220': 'challenge',
};

/** Recently issued tokens' behaviour, so that the authorization right after tokenizing needs no read. */
const RECENT_TOKENS = 10_000;

const LEDGER_KEY = { UQ_sandbox_ledger_operation_key: 'sandbox_ledger.operation, sandbox_ledger.idempotency_key' };

@Injectable()
export class SandboxProcessor implements PaymentProcessor {
  private readonly recentTokens = new Map<string, string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  async tokenize(merchantId: string, card: CardInput): Promise<CardToken> {
    const token: CardToken = { token: `tok_${randomBytes(16).toString('hex')}`, brand: card.brand, last4: card.number.slice(-4) };
    const sandboxBehaviour = SANDBOX_CARD_BEHAVIOUR[card.number] ?? 'approve';
    await this.transactions.write((manager) => manager.getRepository(CardTokenRecord).insert({ ...token, merchantId, sandboxBehaviour }));
    this.remember(token.token, sandboxBehaviour);
    return token;
  }

  async authorize(request: AuthorizationRequest): Promise<AuthorizationResult> {
    const result = await this.decide(request);
    await this.record('authorize', request.attemptKey, request.orderId, request.amountMinor, request.currency, result.outcome);
    return result;
  }

  async completeAuthentication(orderId: string, attemptKey: string, approved: boolean): Promise<'approved' | 'declined'> {
    return (await this.record('authenticate', attemptKey, orderId, 0, 'XXX', approved ? 'approved' : 'declined')) as 'approved' | 'declined';
  }

  async capture(orderId: string, amountMinor: number, currency: string): Promise<boolean> {
    return (await this.record('capture', orderId, orderId, amountMinor, currency, 'captured')) === 'captured';
  }

  async void(orderId: string): Promise<void> {
    await this.record('void', orderId, orderId, 0, 'XXX', 'voided');
  }

  async refund(refundId: string, orderId: string, amountMinor: number, currency: string): Promise<{ succeeded: boolean; reason?: string }> {
    const outcome = await this.record('refund', refundId, orderId, amountMinor, currency, amountMinor % 100 === 13 ? 'failed' : 'succeeded');
    return outcome === 'succeeded' ? { succeeded: true } : { succeeded: false, reason: 'The sandbox processor refused the refund (amount ending in 13)' };
  }

  private async decide(request: AuthorizationRequest): Promise<AuthorizationResult> {
    if (request.method.class === 'Online') return { outcome: 'redirect' };
    if (request.method.class === 'Offline') {
      return { outcome: 'awaiting_funds', bankDetails: sandboxBankDetails(request, this.config.merchantOfRecord.name) };
    }
    switch (request.cardToken ? await this.behaviourOf(request.cardToken) : undefined) {
      case 'declined':
        return { outcome: 'declined', reason: 'declined' };
      case 'insufficient_funds':
        return { outcome: 'declined', reason: 'insufficient_funds' };
      case 'challenge':
        return request.merchantInitiated ? { outcome: 'approved', underReview: request.amountMinor % 100 === 66 } : { outcome: 'challenge' };
      default:
        return { outcome: 'approved', underReview: request.amountMinor % 100 === 66 };
    }
  }

  /** The stored behaviour of a token: from memory when this instance issued it lately, else from the vault. */
  private async behaviourOf(token: string): Promise<string | undefined> {
    const remembered = this.recentTokens.get(token);
    if (remembered) return remembered;
    return (await this.dataSource.getRepository(CardTokenRecord).findOneBy({ token }))?.sandboxBehaviour;
  }

  private remember(token: string, behaviour: string): void {
    if (this.recentTokens.size >= RECENT_TOKENS) this.recentTokens.delete(this.recentTokens.keys().next().value!);
    this.recentTokens.set(token, behaviour);
  }

  /** Writes the operation once per key; a repeat returns the first outcome and does nothing again. */
  private async record(operation: SandboxLedgerEntry['operation'], key: string, orderId: string, amountMinor: number, currency: string, outcome: string): Promise<string> {
    const repository = this.dataSource.getRepository(SandboxLedgerEntry);
    try {
      await this.transactions.write((manager) =>
        manager.getRepository(SandboxLedgerEntry).insert({ id: randomUUID(), operation, idempotencyKey: key, orderId, amountMinor, currency, outcome }),
      );
      return outcome;
    } catch (error) {
      if (!violatedUniqueIndex(error, LEDGER_KEY)) throw error;
      const first = await repository.findOneByOrFail({ operation, idempotencyKey: key });
      return first.outcome;
    }
  }
}
