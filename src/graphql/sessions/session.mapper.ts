import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { SessionState } from '../../session/session-state';
import { Money, money } from '../common/money.model';
import { OrderModel } from '../orders/order.model';
import { ModelColumns } from '../read/model-columns';
import { BillingProfileModel, SessionDiscountModel, SessionItemModel, SessionModel } from './session.model';

/** The state the Session interface would show: a CREATED session past its expiry is EXPIRED. */
export function effectiveSessionState(session: PaymentSession, now: Date): SessionState {
  return session.state === SessionState.Created && session.expiresAt <= now ? SessionState.Expired : session.state;
}

/**
 * The columns each field of Session reads (SessionNode below), so that a page reads only what its query
 * asks for. A test reads every field alone and compares it with a read of all columns.
 */
export const SESSION_FIELD_COLUMNS: ModelColumns<SessionModel, PaymentSession> = {
  id: ['id'],
  merchantId: ['merchantId'],
  merchantReference: ['merchantReference'],
  state: ['state', 'expiresAt'],
  currency: ['currency'],
  totalAmount: ['totalAmount', 'currency'],
  taxAmount: ['taxAmount', 'currency'],
  shippingAmount: ['shipping', 'currency'],
  dutyAmount: ['shipping', 'currency'],
  items: ['items', 'currency'],
  discounts: ['discounts', 'currency'],
  autoCapture: ['autoCapture'],
  viaAgent: ['viaAgent'],
  taxQuoteId: ['taxQuoteId'],
  billingProfileId: ['billingProfileId'],
  expiresAt: ['expiresAt'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  billingProfile: ['billingProfileId'],
  order: ['id'],
};

/**
 * A session as GraphQL shows it, read from the entity only when a field is asked for: no object per
 * field for the fields a dashboard leaves out, and no field reads a column SESSION_FIELD_COLUMNS does not name.
 */
class SessionNode implements SessionModel {
  // Related objects: filled by Relations (or the page's joins) when the query asks for them.
  billingProfile?: BillingProfileModel;
  order?: OrderModel | null;

  constructor(
    private readonly session: PaymentSession,
    private readonly now: Date,
  ) {}

  get id(): string {
    return this.session.id;
  }
  get merchantId(): string {
    return this.session.merchantId;
  }
  get merchantReference(): string {
    return this.session.merchantReference;
  }
  get state(): SessionState {
    return effectiveSessionState(this.session, this.now);
  }
  get currency(): string {
    return this.session.currency;
  }
  get totalAmount(): Money {
    return money(this.session.totalAmount, this.session.currency);
  }
  get taxAmount(): Money | null {
    return this.session.taxAmount === null ? null : money(this.session.taxAmount, this.session.currency);
  }
  get shippingAmount(): Money | null {
    return this.session.shipping ? money(this.session.shipping.shippingAmount, this.session.currency) : null;
  }
  get dutyAmount(): Money | null {
    return this.session.shipping ? money(this.session.shipping.dutyAmount, this.session.currency) : null;
  }
  get items(): SessionItemModel[] {
    const currency = this.session.currency;
    return this.session.items.map((item) => ({ name: item.name, amount: money(item.amount, currency), quantity: item.quantity }));
  }
  get discounts(): SessionDiscountModel[] {
    const currency = this.session.currency;
    return (this.session.discounts ?? []).map((discount) => ({ name: discount.name, amount: money(discount.amount, currency) }));
  }
  get autoCapture(): boolean {
    return this.session.autoCapture;
  }
  get viaAgent(): boolean {
    return this.session.viaAgent;
  }
  get taxQuoteId(): string | null {
    return this.session.taxQuoteId;
  }
  get billingProfileId(): string {
    return this.session.billingProfileId;
  }
  get expiresAt(): Date {
    return this.session.expiresAt;
  }
  get createdAt(): Date {
    return this.session.createdAt;
  }
  get updatedAt(): Date {
    return this.session.updatedAt;
  }
}

/** The session as GraphQL shows it (fields read lazily; see SessionNode). */
export function toSessionModel(session: PaymentSession, now: Date): SessionModel {
  return new SessionNode(session, now);
}

/** Each BillingProfile field reads its own column. */
export const BILLING_PROFILE_FIELD_COLUMNS: ModelColumns<BillingProfileModel, BillingProfile> = {
  id: ['id'],
  reference: ['reference'],
  name: ['name'],
  email: ['email'],
  company: ['company'],
  city: ['city'],
  region: ['region'],
  country: ['country'],
  postcode: ['postcode'],
};

export function toBillingProfileModel(profile: BillingProfile): BillingProfileModel {
  return {
    id: profile.id,
    reference: profile.reference,
    name: profile.name,
    email: profile.email,
    company: profile.company,
    city: profile.city,
    region: profile.region,
    country: profile.country,
    postcode: profile.postcode,
  };
}
