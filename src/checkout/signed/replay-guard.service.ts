import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { LessThan } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../common/config/app-config';
import { violatedUniqueIndex } from '../../common/database/db-errors';
import { TransactionRunner } from '../../common/database/transaction-runner';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { parseRfc3339 } from './request-timestamp';
import { SignedRequestSeen } from './signed-request-seen.entity';

const PURGE_INTERVAL_MS = 60_000;
const MAX_NONCE_LENGTH = 64;

/**
 * Replay protection for signed Checkout requests (an addition to the real API, which has none). A request
 * that carries `Timestamp` must be fresh (within CHECKOUT_REPLAY_WINDOW_SECONDS of the clock) and is
 * accepted once: its hash is recorded until the Timestamp leaves the window. `Nonce` only makes two
 * requests signed in the same millisecond differ. Run only after the signature verified, so that
 * nobody without the secret can write to the table.
 */
@Injectable()
export class ReplayGuardService {
  private readonly logger = new Logger('ReplayGuard');
  private nextPurgeAt = 0;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Checks the verified request; returns its payload without Timestamp and Nonce (handlers' DTOs refuse unknown fields). */
  async check(merchantId: string, requestText: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { Timestamp, Nonce, ...rest } = payload;
    if (Nonce !== undefined && (typeof Nonce !== 'string' || Nonce.length === 0 || Nonce.length > MAX_NONCE_LENGTH)) {
      throw new CheckoutError(CheckoutErrorCode.RequestInvalid, `Nonce must be a string of 1 to ${MAX_NONCE_LENGTH} characters`);
    }
    if (Timestamp === undefined) {
      if (this.config.checkoutRequireTimestamp) {
        throw new CheckoutError(
          CheckoutErrorCode.TimestampMissing,
          'The signed request must carry Timestamp (the current time, RFC 3339, e.g. 2025-11-27T10:00:00Z) and a Nonce',
        );
      }
      return rest;
    }
    const timestamp = typeof Timestamp === 'string' ? parseRfc3339(Timestamp) : null;
    if (!timestamp) {
      throw new CheckoutError(CheckoutErrorCode.RequestInvalid, 'Timestamp must be an RFC 3339 date-time with a zone, e.g. 2025-11-27T10:00:00Z');
    }
    this.checkWindow(timestamp);
    await this.recordOnce(merchantId, requestText, timestamp);
    return rest;
  }

  /** For routes exempt from the check: the payload without Timestamp and Nonce, nothing recorded. */
  withoutReplayFields(payload: Record<string, unknown>): Record<string, unknown> {
    const { Timestamp: _timestamp, Nonce: _nonce, ...rest } = payload;
    return rest;
  }

  /** Deletes the rows whose Timestamp left the window; returns how many. */
  async purgeExpired(now = this.clock.now()): Promise<number> {
    const result = await this.transactions.run((manager) => manager.getRepository(SignedRequestSeen).delete({ expiresAt: LessThan(now) }));
    return result.affected ?? 0;
  }

  private checkWindow(timestamp: Date): void {
    const now = this.clock.now();
    const window = this.config.checkoutReplayWindowSeconds;
    if (Math.abs(now.getTime() - timestamp.getTime()) > window * 1000) {
      throw new CheckoutError(
        CheckoutErrorCode.RequestExpired,
        `Timestamp must be within ${window} seconds of the server's clock (now ${now.toISOString()}); sign the request again with the current time`,
      );
    }
  }

  /** The insert is the check: the primary key lets only one of two concurrent replays through. */
  private async recordOnce(merchantId: string, requestText: string, timestamp: Date): Promise<void> {
    const seen = {
      merchantId,
      requestHash: createHash('sha256').update(requestText, 'utf8').digest('hex'),
      // After this the Timestamp is outside the window, so the request is refused as expired anyway.
      expiresAt: new Date(timestamp.getTime() + this.config.checkoutReplayWindowSeconds * 1000),
    };
    try {
      await this.transactions.write((manager) => manager.getRepository(SignedRequestSeen).insert(seen));
    } catch (error) {
      if (violatedUniqueIndex(error, { PRIMARY: 'signed_request_seen.merchant_id, signed_request_seen.request_hash' })) {
        throw new CheckoutError(
          CheckoutErrorCode.RequestReplayed,
          'This signed request was already received; sign a new one with a fresh Timestamp and Nonce',
        );
      }
      throw error;
    } finally {
      this.purgeNowAndThen();
    }
  }

  /** At most once a minute per process, in the background: a failed purge only waits for the next one. */
  private purgeNowAndThen(): void {
    const now = this.clock.now();
    if (now.getTime() < this.nextPurgeAt) return;
    this.nextPurgeAt = now.getTime() + PURGE_INTERVAL_MS;
    this.purgeExpired(now).catch((error: unknown) =>
      this.logger.warn(`Purging expired signed requests failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
