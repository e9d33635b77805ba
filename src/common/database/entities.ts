import { Merchant } from '../../auth/merchant.entity';
import { SigningSecret } from '../../auth/signing-secret.entity';
import { User } from '../../auth/user.entity';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { TaxQuote } from '../../tax/tax-quote.entity';
import { RateOffer, ReferenceRate } from '../../checkout/rates/rate.entities';
import { DeviceFingerprint } from '../../checkout/fingerprint/device-fingerprint.entity';

export const ENTITIES = [Merchant, SigningSecret, User, BillingProfile, PaymentSession, IdempotencyRecord, TaxQuote, ReferenceRate, RateOffer, DeviceFingerprint];
