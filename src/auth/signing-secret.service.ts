import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { AppConfig } from '../common/config/app-config';
import { EntityRows } from '../common/database/reads/entity-rows';
import { ReadQuery } from '../common/database/reads/read-query';
import { TransactionRunner } from '../common/database/transaction-runner';
import { invalidRequest } from '../common/errors/domain-error';
import { FieldErrorCode } from '../common/errors/field-error';
import { SecretBox } from '../common/secrets/secret-box';
import { Merchant } from './merchant.entity';
import { SigningSecret } from './signing-secret.entity';

export interface RotatedSecret {
  secret: string;
  previousValidUntil: Date | null;
}

/**
 * Merchants' HMAC signing secrets: issued at random, stored sealed, rotated with an overlap during
 * which the previous secret still verifies while responses are signed with the new one.
 */
@Injectable()
export class SigningSecretService {
  private readonly merchantRows: EntityRows<Merchant>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
  ) {
    this.merchantRows = EntityRows.ofAllColumns(dataSource, Merchant);
  }

  /**
   * A new secret for the merchant (inside the caller's transaction); returned once, in clear.
   * It is usable only in `environment` (default: the running one).
   */
  async issue(manager: EntityManager, merchantId: string, environment = this.config.environment): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    await manager.getRepository(SigningSecret).insert({
      id: randomUUID(),
      merchantId,
      secretSealed: this.box.seal(secret),
      environment,
      retiresAt: null,
    });
    return secret;
  }

  /**
   * Replaces the running environment's current secret; the old one keeps verifying for
   * SECRET_ROTATION_OVERLAP_SECONDS. Another environment's secrets are left alone.
   */
  async rotate(merchantId: string, now = new Date()): Promise<RotatedSecret> {
    if (!(await this.dataSource.getRepository(Merchant).existsBy({ id: merchantId }))) {
      throw invalidRequest([{ Field: 'merchant', Code: FieldErrorCode.Invalid, Message: 'No merchant has this id' }]);
    }
    const previousValidUntil = new Date(now.getTime() + this.config.secretRotationOverlapSeconds * 1000);
    return this.transactions.run(async (manager) => {
      const retired = await manager
        .getRepository(SigningSecret)
        .update({ merchantId, environment: this.config.environment, retiresAt: IsNull() }, { retiresAt: previousValidUntil });
      const secret = await this.issue(manager, merchantId);
      return { secret, previousValidUntil: retired.affected ? previousValidUntil : null };
    });
  }

  /**
   * Seals every stored secret again with `box`'s current key (a secrets-key rotation), in one
   * transaction: either all of them move to the new key or none does. Returns how many were resealed.
   */
  async resealAll(box: SecretBox): Promise<number> {
    return this.transactions.run(async (manager) => {
      const rows = await manager.getRepository(SigningSecret).find();
      for (const row of rows) {
        await manager.getRepository(SigningSecret).update({ id: row.id }, { secretSealed: box.seal(box.open(row.secretSealed)) });
      }
      return rows.length;
    });
  }

  /** Signs with the newest secret: Base64(HMAC-SHA256(secret, UTF-8 bytes of text)). */
  async sign(merchantId: string, text: string): Promise<string> {
    const [current] = await this.usableSecrets(merchantId, new Date());
    if (!current) throw new Error(`Merchant ${merchantId} has no signing secret`);
    return hmac(current, text);
  }

  /** True when the signature matches any secret still valid at `now`; compared in constant time. */
  async verify(merchantId: string, text: string, signature: string, now = new Date()): Promise<boolean> {
    return matchesAny(await this.usableSecrets(merchantId, now), text, signature);
  }

  /**
   * The secrets a call may be signed with, newest first (the one answers are signed with). The signed
   * transport reads them once per call and keeps them for the answer, saving a second lookup.
   */
  usableSecrets(merchantId: string, now = new Date()): Promise<string[]> {
    return this.loadSecrets(merchantId, now);
  }

  /**
   * The merchant (null: none has this id) and its usable secrets, newest first, in one query: every
   * signed call needs both before it may run, and two round trips cost it more CPU than the database.
   */
  async merchantWithSecrets(merchantId: string, now = new Date()): Promise<{ merchant: Merchant | null; secrets: string[] }> {
    const query = new ReadQuery(this.dataSource, Merchant, 'm');
    const usable = `s.environment = ? AND (s.retires_at IS NULL OR ${query.dialect.compareTimestamp('s.retires_at', '>', '?')})`;
    const rows = await query
      .select(this.merchantRows.selection('m'), 's.secret_sealed AS secret_sealed')
      .leftJoin(SigningSecret, 's', `s.merchant_id = m.id AND ${usable}`, this.config.environment, now)
      .where('m.id = ?', merchantId)
      .orderBy('s.created_at DESC')
      .rows<{ secret_sealed: string | null }>();
    if (rows.length === 0) return { merchant: null, secrets: [] };
    const secrets = rows.filter((row) => row.secret_sealed !== null).map((row) => this.box.open(row.secret_sealed!));
    return { merchant: this.merchantRows.hydrate(rows[0], 'm_'), secrets };
  }

  /** The running environment's secrets: current first, then the ones still inside their overlap. */
  private async loadSecrets(merchantId: string, now: Date): Promise<string[]> {
    const { environment } = this.config;
    const rows = await this.dataSource.getRepository(SigningSecret).find({
      where: [
        { merchantId, environment, retiresAt: IsNull() },
        { merchantId, environment, retiresAt: MoreThan(now) },
      ],
      order: { createdAt: 'DESC' },
    });
    return rows.map((row) => this.box.open(row.secretSealed));
  }
}

export function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('base64');
}

/** Compares with every candidate (no early exit), so timing does not tell which secret matched. */
export function matchesAny(secrets: string[], text: string, signature: string): boolean {
  const given = Buffer.from(signature, 'base64');
  let valid = false;
  for (const secret of secrets) {
    const expected = Buffer.from(hmac(secret, text), 'base64');
    valid = (given.length === expected.length && timingSafeEqual(given, expected)) || valid;
  }
  return valid;
}
