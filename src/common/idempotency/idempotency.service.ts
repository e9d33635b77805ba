import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, IsNull, LessThan } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { violatedUniqueIndex } from '../database/db-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-codes';
import { IdempotencyRecord } from './idempotency-record.entity';

/** Longer than any request may run (HTTP request timeout included). */
export const ABANDONED_CLAIM_MS = 60_000;

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency-Key bookkeeping in the database, so that every instance sees the same keys.
 * The first request claims the key by inserting a row; retries replay its stored response.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  static hashRequest(method: string, path: string, body: unknown): string {
    return createHash('sha256').update(`${method} ${path}\n`).update(JSON.stringify(body ?? null)).digest('hex');
  }

  async claim(merchantId: string, key: string, requestHash: string): Promise<Claim> {
    const repository = this.dataSource.getRepository(IdempotencyRecord);
    await this.forgetExpired(merchantId, key);
    try {
      await this.transactions.run((manager) =>
        manager.getRepository(IdempotencyRecord).insert({ merchantId, key, requestHash, responseStatus: null, responseBody: null }),
      );
      return { kind: 'claimed' };
    } catch (error) {
      if (!violatedUniqueIndex(error, { PRIMARY: 'idempotency_record.merchant_id, idempotency_record.idempotency_key' })) {
        throw error;
      }
    }
    const existing = await repository.findOneBy({ merchantId, key });
    if (!existing) throw new DomainError(ErrorCode.DuplicateRequest);
    if (existing.requestHash !== requestHash) throw new DomainError(ErrorCode.IdempotencyKeyMismatch);
    if (existing.responseStatus === null) {
      if (await this.takeOverAbandoned(merchantId, key)) return { kind: 'claimed' };
      throw new DomainError(ErrorCode.DuplicateRequest);
    }
    return { kind: 'replay', status: existing.responseStatus, body: JSON.parse(existing.responseBody ?? 'null') };
  }

  async complete(merchantId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.transactions.run((manager) =>
      manager.getRepository(IdempotencyRecord).update({ merchantId, key }, { responseStatus: status, responseBody: JSON.stringify(body ?? null) }),
    );
  }

  /** An unexpected failure is not remembered: the client may retry with the same key. */
  async release(merchantId: string, key: string): Promise<void> {
    await this.transactions.run((manager) => manager.getRepository(IdempotencyRecord).delete({ merchantId, key }));
  }

  /**
   * A claim still without a response after ABANDONED_CLAIM_MS belongs to a request whose instance died
   * (requests time out well before): the retry takes it over, in one conditional UPDATE so that only
   * one retry does. What the dead request committed still stands (e.g. its MerchantReference is taken).
   */
  private async takeOverAbandoned(merchantId: string, key: string): Promise<boolean> {
    const cutoff = new Date(Date.now() - ABANDONED_CLAIM_MS);
    const result = await this.transactions.run((manager) =>
      manager
        .getRepository(IdempotencyRecord)
        .update({ merchantId, key, responseStatus: IsNull(), createdAt: LessThan(cutoff) }, { createdAt: new Date() }),
    );
    return result.affected === 1;
  }

  private async forgetExpired(merchantId: string, key: string): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.idempotencyTtlSeconds * 1000);
    const stale = await this.dataSource.getRepository(IdempotencyRecord).existsBy({ merchantId, key, createdAt: LessThan(cutoff) });
    if (stale) {
      await this.transactions.run((manager) =>
        manager.getRepository(IdempotencyRecord).delete({ merchantId, key, createdAt: LessThan(cutoff) }),
      );
    }
  }
}
