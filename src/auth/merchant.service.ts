import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { invalidRequest } from '../common/errors/domain-error';
import { FieldError, FieldErrorCode } from '../common/errors/field-error';
import { isSupportedCurrency } from '../common/money/currencies';
import { TransactionRunner } from '../common/database/transaction-runner';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { Merchant } from './merchant.entity';
import { SigningSecretService } from './signing-secret.service';

export interface CreateMerchantInput {
  name: string;
  id?: string;
  remittanceCurrency?: string;
  notifyUrl?: string;
  rateMode?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

@Injectable()
export class MerchantService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  /** A new merchant and its first signing secret, which is returned in clear this once. */
  async create(input: CreateMerchantInput): Promise<{ merchant: Merchant; signingSecret: string }> {
    const errors = validateMerchantInput(input);
    if (errors.length) throw invalidRequest(errors);
    const merchant = Object.assign(new Merchant(), {
      id: input.id?.toLowerCase() ?? randomUUID(),
      name: input.name.trim(),
      remittanceCurrency: input.remittanceCurrency ?? 'USD',
      notifyUrl: input.notifyUrl ?? null,
      rateMode: (input.rateMode ?? 'guaranteed') as Merchant['rateMode'],
    });
    try {
      return await this.transactions.run(async (manager) => {
        await manager.insert(Merchant, merchant);
        return { merchant, signingSecret: await this.signingSecrets.issue(manager, merchant.id) };
      });
    } catch (error) {
      if (violatedUniqueIndex(error, { PRIMARY: 'merchant.id' })) {
        throw invalidRequest([{ Field: 'id', Code: FieldErrorCode.Conflict, Message: 'A merchant with this id exists' }]);
      }
      throw error;
    }
  }

  /**
   * Changes a merchant's notify URL; null (the command line's "") removes it. Notifications already
   * waiting use the new URL at their next attempt, unless their order carried its own Notify.
   */
  async updateNotifyUrl(id: string, notifyUrl: string | null): Promise<Merchant> {
    const errors: FieldError[] = [];
    if (!UUID.test(id)) errors.push({ Field: 'id', Code: FieldErrorCode.Invalid, Message: 'must be a UUID' });
    if (notifyUrl !== null && !isNotifyUrl(notifyUrl)) errors.push({ Field: 'notify-url', Code: FieldErrorCode.Invalid, Message: NOTIFY_URL_RULE });
    if (errors.length) throw invalidRequest(errors);
    const result = await this.transactions.run((manager) => manager.getRepository(Merchant).update({ id: id.toLowerCase() }, { notifyUrl }));
    if (!result.affected) throw invalidRequest([{ Field: 'id', Code: FieldErrorCode.Invalid, Message: 'No merchant has this id' }]);
    return (await this.findById(id.toLowerCase()))!;
  }

  findById(id: string): Promise<Merchant | null> {
    return this.dataSource.getRepository(Merchant).findOneBy({ id });
  }

  count(): Promise<number> {
    return this.dataSource.getRepository(Merchant).count();
  }
}

function validateMerchantInput(input: CreateMerchantInput): FieldError[] {
  const errors: FieldError[] = [];
  const invalid = (Field: string, Message: string) => errors.push({ Field, Code: FieldErrorCode.Invalid, Message });
  if (!input.name?.trim() || input.name.length > 200) invalid('name', 'must be 1 to 200 characters');
  if (input.id !== undefined && !UUID.test(input.id)) invalid('id', 'must be a UUID');
  if (input.remittanceCurrency !== undefined && !isSupportedCurrency(input.remittanceCurrency)) {
    invalid('remittance-currency', 'must be a supported ISO 4217 currency code');
  }
  if (input.rateMode !== undefined && input.rateMode !== 'guaranteed' && input.rateMode !== 'spot') {
    invalid('rate-mode', 'must be guaranteed or spot');
  }
  if (input.notifyUrl !== undefined && !isNotifyUrl(input.notifyUrl)) {
    invalid('notify-url', NOTIFY_URL_RULE);
  }
  return errors;
}

const NOTIFY_URL_RULE = 'must be an absolute http(s) URL of at most 2000 characters';

/** Where notifications are POSTed: an absolute http(s) URL that fits its column. */
export function isNotifyUrl(value: string): boolean {
  if (value.length > 2000 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
