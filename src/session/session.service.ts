import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../auth/principal';
import { AppConfig } from '../common/config/app-config';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { TransactionRunner } from '../common/database/transaction-runner';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { BillingProfile } from './billing-profile.entity';
import { resolveBillingProfile } from './billing-profiles';
import { SessionRequestDto } from './dto/session-request.dto';
import { SessionView } from './dto/session-response.dto';
import { TaxQuoteService } from '../tax/tax-quote.service';
import { checkSessionRequest, QuotedTax, SessionInput } from './rules/session-input';
import { Order } from '../orders/order.entity';
import { PaymentSession } from './session.entity';
import { SessionLookup } from './session-lookup';
import { toSessionView } from './session.mapper';
import { SessionState } from './session-state';

const SESSION_UNIQUE = { UQ_session_merchant_reference: 'payment_session.merchant_id, payment_session.merchant_reference' };
/** How long an update may hold a session before another update may take it over. */
const UPDATE_LOCK_MS = 30_000;

@Injectable()
export class SessionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
    private readonly taxQuotes: TaxQuoteService,
    private readonly lookup: SessionLookup,
  ) {}

  async create(principal: Principal, dto: SessionRequestDto): Promise<SessionView> {
    const merchantId = principal.merchantId!;
    const now = new Date();
    const input = checkSessionRequest(dto, now, await this.quoteNamedBy(merchantId, dto));
    return this.transactions.run(async (manager) => {
      const profile = await resolveBillingProfile(manager, merchantId, input.billing);
      const session = manager.getRepository(PaymentSession).create({
        id: randomUUID(),
        merchantId,
        state: SessionState.Created,
        expiresAt: new Date(now.getTime() + this.config.sessionTtlSeconds * 1000),
        updateLockUntil: null,
        ...sessionColumns(input, profile),
      });
      await insertOrConflict(manager, session);
      // The view shows no database-generated column, so the inserted entity is the stored row.
      return toSessionView(session, profile);
    });
  }

  async get(principal: Principal, id: string): Promise<SessionView> {
    const found = await this.lookup.withProfile(id, principal.merchantId);
    if (!found) throw new DomainError(ErrorCode.SessionNotFound);
    const session = await this.applyExpiry(found);
    // Only a session the shopper has paid (or is paying) has an order: no extra query for the others.
    const order = PAID_STATES.has(session.state) ? await this.dataSource.getRepository(Order).findOneBy({ sessionId: session.id }) : null;
    return toSessionView(session, found.billingProfile, order);
  }

  /** Full replacement of a CREATED session; an update that overlaps another gets DUPLICATE_REQUEST. */
  async update(principal: Principal, id: string, dto: SessionRequestDto): Promise<SessionView> {
    const merchantId = principal.merchantId!;
    const input = checkSessionRequest(dto, new Date(), await this.quoteNamedBy(merchantId, dto));
    const lockUntil = await this.acquireUpdateLock(principal, id, 'UPDATED');
    try {
      return await this.transactions.run(async (manager) => {
        const profile = await resolveBillingProfile(manager, merchantId, input.billing);
        const result = await manager
          .createQueryBuilder()
          .update(PaymentSession)
          .set({ ...sessionColumns(input, profile), updateLockUntil: null })
          .where('id = :id AND merchant_id = :merchantId AND update_lock_until = :lockUntil', { id, merchantId, lockUntil })
          .execute()
          .catch((error: unknown) => {
            if (violatedUniqueIndex(error, SESSION_UNIQUE)) throw new DomainError(ErrorCode.DuplicateMerchantReferenceId);
            throw error;
          });
        if (result.affected !== 1) throw new DomainError(ErrorCode.DuplicateRequest);
        const stored = await manager.getRepository(PaymentSession).findOneByOrFail({ id });
        return toSessionView(stored, profile);
      });
    } catch (error) {
      // On success the UPDATE itself cleared the lock; on failure give the session back at once.
      await this.releaseUpdateLock(id, lockUntil);
      throw error;
    }
  }

  private async quoteNamedBy(merchantId: string, dto: SessionRequestDto): Promise<QuotedTax | null> {
    if (dto.TaxQuoteId === undefined || typeof dto.TaxQuoteId !== 'string') return null;
    return this.taxQuotes.findSummary(merchantId, dto.TaxQuoteId.toLowerCase());
  }

  /** CREATED → CANCELLED; any other state is INVALID_SESSION_STATE. */
  async cancel(principal: Principal, id: string): Promise<void> {
    if (await this.updateIfMutable(principal, id, { state: SessionState.Cancelled })) return;
    await this.explainRefusal(principal, id, 'CANCELLED');
  }

  /**
   * Marks the session as being updated, in one conditional UPDATE so that two instances cannot both win.
   * Returns the lock's expiry, which identifies this update's hold on the row.
   */
  private async acquireUpdateLock(principal: Principal, id: string, action: string): Promise<Date> {
    const lockUntil = new Date(Date.now() + UPDATE_LOCK_MS);
    if (!(await this.updateIfMutable(principal, id, { updateLockUntil: lockUntil }))) {
      await this.explainRefusal(principal, id, action);
    }
    return lockUntil;
  }

  /**
   * Applies `changes` only if the merchant's session is CREATED, unexpired and not held by an update:
   * one atomic statement, so the check and the write cannot be separated by another request or instance.
   */
  private async updateIfMutable(principal: Principal, id: string, changes: Partial<PaymentSession>): Promise<boolean> {
    const now = new Date();
    const result = await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(PaymentSession)
        .set(changes)
        .where('id = :id AND merchant_id = :merchantId AND state = :created AND expires_at > :now', {
          id,
          merchantId: principal.merchantId,
          created: SessionState.Created,
          now,
        })
        .andWhere('(update_lock_until IS NULL OR update_lock_until < :now)', { now })
        .execute(),
    );
    return result.affected === 1;
  }

  private async releaseUpdateLock(id: string, lockUntil: Date): Promise<void> {
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(PaymentSession)
        .set({ updateLockUntil: null })
        .where('id = :id AND update_lock_until = :lockUntil', { id, lockUntil })
        .execute(),
    );
  }

  /** Says why a conditional write matched no row: not found, wrong state, or another update holds it. */
  private async explainRefusal(principal: Principal, id: string, action: string): Promise<never> {
    const session = await this.findVisible(principal, id);
    if (session.state !== SessionState.Created) {
      throw new DomainError(
        ErrorCode.InvalidSessionState,
        `Session cannot be ${action} as it is already ${session.state}`,
      );
    }
    throw new DomainError(ErrorCode.DuplicateRequest);
  }

  /** The session if this principal may see it (admins see all), with expiry applied; else SESSION_NOT_FOUND. */
  private async findVisible(principal: Principal, id: string): Promise<PaymentSession> {
    const where = principal.merchantId ? { id, merchantId: principal.merchantId } : { id };
    const session = await this.dataSource.getRepository(PaymentSession).findOneBy(where);
    if (!session) throw new DomainError(ErrorCode.SessionNotFound);
    return this.applyExpiry(session);
  }

  /** A CREATED session past its expiry becomes EXPIRED; done on read so no scheduler is needed for correctness. */
  private async applyExpiry(session: PaymentSession): Promise<PaymentSession> {
    const now = new Date();
    if (session.state !== SessionState.Created || session.expiresAt > now) return session;
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(PaymentSession)
        .set({ state: SessionState.Expired })
        .where('id = :id AND state = :created AND expires_at <= :now', { id: session.id, created: SessionState.Created, now })
        .execute(),
    );
    return this.dataSource.getRepository(PaymentSession).findOneByOrFail({ id: session.id });
  }
}

/** States in which a session may have an order to show. */
const PAID_STATES: ReadonlySet<SessionState> = new Set([SessionState.Redirected, SessionState.Completed]);

function sessionColumns(input: SessionInput, profile: BillingProfile): Partial<PaymentSession> {
  return {
    merchantReference: input.merchantReference,
    currency: input.currency,
    autoCapture: input.autoCapture,
    completeUrl: input.completeUrl,
    cancelUrl: input.cancelUrl,
    billingProfileId: profile.id,
    billingProfileReference: input.rootBillingReference,
    viaAgent: input.viaAgent,
    allowContract: input.allowContract,
    openContract: input.openContract,
    items: input.items,
    discounts: input.discounts,
    shipping: input.shipping,
    taxAmount: input.taxAmount,
    taxQuoteId: input.taxQuoteId,
    totalAmount: input.totalAmount,
  };
}

async function insertOrConflict(manager: EntityManager, session: PaymentSession): Promise<void> {
  try {
    await manager.getRepository(PaymentSession).insert(session);
  } catch (error) {
    if (violatedUniqueIndex(error, SESSION_UNIQUE)) throw new DomainError(ErrorCode.DuplicateMerchantReferenceId);
    throw error;
  }
}
