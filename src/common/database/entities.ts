import { Merchant } from '../../auth/merchant.entity';
import { SigningSecret } from '../../auth/signing-secret.entity';
import { User } from '../../auth/user.entity';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { TaxQuote } from '../../tax/tax-quote.entity';
import { RateOffer, ReferenceRate } from '../../checkout/rates/rate.entities';
import { DeviceFingerprint } from '../../checkout/fingerprint/device-fingerprint.entity';
import { SignedRequestSeen } from '../../checkout/signed/signed-request-seen.entity';
import { JobLease } from '../scheduler/job-lease.entity';
import { Order } from '../../orders/order.entity';
import { OrderEvent } from '../../orders/order-event.entity';
import { Refund } from '../../orders/refund.entity';
import { Contract } from '../../orders/contract.entity';
import { CardTokenRecord } from '../../orders/processor/card-token.entity';
import { SandboxLedgerEntry } from '../../orders/processor/sandbox-ledger.entity';

export const ENTITIES = [Merchant, SigningSecret, User, BillingProfile, PaymentSession, IdempotencyRecord, TaxQuote, ReferenceRate, RateOffer, DeviceFingerprint, SignedRequestSeen, JobLease, Order, OrderEvent, Refund, Contract, CardTokenRecord, SandboxLedgerEntry];
