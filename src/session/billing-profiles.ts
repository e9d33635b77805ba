import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { DomainError, invalidRequest } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { FieldErrorCode } from '../common/errors/field-error';
import { BillingProfile } from './billing-profile.entity';
import { BillingSource } from './rules/session-input';

export const BILLING_PROFILE_UNIQUE = { UQ_billing_profile_reference: 'billing_profile.merchant_id, billing_profile.reference' };

/** Finds the merchant's profile a session names, or creates the new one it carries (inside the caller's transaction). */
export async function resolveBillingProfile(
  manager: EntityManager,
  merchantId: string,
  source: BillingSource,
): Promise<BillingProfile> {
  const repository = manager.getRepository(BillingProfile);
  if (source.kind === 'reference' || source.kind === 'id') {
    const found = source.kind === 'reference'
      ? await repository.findOneBy({ merchantId, reference: source.reference })
      : await repository.findOneBy({ merchantId, id: source.id });
    if (found) return found;
    const field = source.kind === 'reference' ? 'BillingProfileReference' : 'BillingProfileId';
    throw invalidRequest([{ Field: field, Code: FieldErrorCode.Invalid, Message: `${field} names no billing profile of this merchant` }]);
  }
  const { profile } = source;
  const entity = repository.create({ id: randomUUID(), merchantId, ...profile });
  try {
    await repository.insert(entity);
  } catch (error) {
    if (violatedUniqueIndex(error, BILLING_PROFILE_UNIQUE)) throw new DomainError(ErrorCode.DuplicateBillingProfileReference);
    throw error;
  }
  return entity;
}
