import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { SessionState } from '../../session/session-state';
import { money } from '../common/money.model';
import { BillingProfileModel, SessionModel } from './session.model';

/** The state the Session interface would show: a CREATED session past its expiry is EXPIRED. */
export function effectiveSessionState(session: PaymentSession, now: Date): SessionState {
  return session.state === SessionState.Created && session.expiresAt <= now ? SessionState.Expired : session.state;
}

/** The session as GraphQL shows it; what most dashboard queries leave out (lines, shipping) is mapped only when asked for. */
export function toSessionModel(session: PaymentSession, now: Date): SessionModel {
  const amount = (minor: number) => money(minor, session.currency);
  return {
    id: session.id,
    merchantId: session.merchantId,
    merchantReference: session.merchantReference,
    state: effectiveSessionState(session, now),
    currency: session.currency,
    totalAmount: amount(session.totalAmount),
    taxAmount: session.taxAmount === null ? null : amount(session.taxAmount),
    shippingAmount: session.shipping ? amount(session.shipping.shippingAmount) : null,
    dutyAmount: session.shipping ? amount(session.shipping.dutyAmount) : null,
    get items() {
      return session.items.map((item) => ({ name: item.name, amount: amount(item.amount), quantity: item.quantity }));
    },
    get discounts() {
      return (session.discounts ?? []).map((discount) => ({ name: discount.name, amount: amount(discount.amount) }));
    },
    autoCapture: session.autoCapture,
    viaAgent: session.viaAgent,
    taxQuoteId: session.taxQuoteId,
    billingProfileId: session.billingProfileId,
    expiresAt: session.expiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}

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
