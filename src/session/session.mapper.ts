import { fromMinorUnits } from '../common/money/money';
import { BillingProfile } from './billing-profile.entity';
import { AddressView, BillingProfileView, SessionView } from './dto/session-response.dto';
import type { Order } from '../orders/order.entity';
import { PaymentSession, StoredAddress } from './session.entity';
import { SessionState } from './session-state';

/** The session as the API shows it: PascalCase, amounts back in major units, optional fields only when set. */
export function toSessionView(session: PaymentSession, profile: BillingProfile, order: Order | null = null): SessionView {
  const money = (minor: number) => fromMinorUnits(minor, session.currency);
  const shipping = session.shipping;
  // Built in the spec's field order; optional fields only when they were sent.
  return {
    SessionId: session.id,
    State: session.state,
    MerchantReference: session.merchantReference,
    AutoCapture: session.autoCapture,
    CompleteUrl: session.completeUrl,
    CancelUrl: session.cancelUrl,
    Currency: session.currency,
    Items: session.items.map((item) => ({ Name: item.name, Amount: money(item.amount), Quantity: item.quantity })),
    BillingProfile: toBillingProfileView(profile),
    ...(session.billingProfileReference !== null && { BillingProfileReference: session.billingProfileReference }),
    BillingProfileId: profile.id,
    ViaAgent: session.viaAgent,
    ...(shipping && {
      ShippingDetails: {
        ShippingAmount: money(shipping.shippingAmount),
        DutyAmount: money(shipping.dutyAmount),
        Name: shipping.name,
        Email: shipping.email,
        Phone: shipping.phone,
        Address: toAddressView(shipping.address),
      },
    }),
    ...(session.taxAmount !== null && { TaxAmount: money(session.taxAmount) }),
    ...(session.taxQuoteId !== null && { TaxQuoteId: session.taxQuoteId }),
    ...(session.discounts && { Discounts: session.discounts.map((d) => ({ Name: d.name, Amount: money(d.amount) })) }),
    ...(session.allowContract !== null && { AllowContract: session.allowContract }),
    ...(session.openContract !== null && { OpenContract: session.openContract }),
    TotalAmount: money(session.totalAmount),
    ExpiresAt: session.expiresAt.toISOString(),
    ...paymentFields(session, order),
  };
}

/** What the payment added: RedirectUrl while REDIRECTED; PaymentMethod, PaymentDate and Order once COMPLETED. */
function paymentFields(session: PaymentSession, order: Order | null): Partial<SessionView> {
  if (!order) return {};
  if (session.state === SessionState.Redirected && order.action && ('Challenge' in order.action || 'Redirect' in order.action)) {
    return { RedirectUrl: 'Challenge' in order.action ? order.action.Challenge : order.action.Redirect };
  }
  if (session.state !== SessionState.Completed) return {};
  return {
    PaymentMethod: order.paymentMethod,
    PaymentDate: (order.authorizedAt ?? order.createdAt).toISOString(),
    Order: {
      OrderId: order.id,
      State: order.state.toUpperCase(),
      MerchantReference: order.referenceId,
      SessionId: session.id,
      ...(order.bankDetails ? { BankDetails: order.bankDetails } : {}),
    },
  };
}

function toBillingProfileView(profile: BillingProfile): BillingProfileView {
  const view: BillingProfileView = {
    BillingProfileId: profile.id,
    Name: profile.name,
    Email: profile.email,
    Address: toAddressView({
      street: profile.street,
      city: profile.city,
      region: profile.region ?? undefined,
      country: profile.country,
      postcode: profile.postcode ?? undefined,
    }),
  };
  if (profile.reference !== null) view.BillingProfileReference = profile.reference;
  if (profile.phone !== null) view.Phone = profile.phone;
  if (profile.birthDate !== null) view.BirthDate = profile.birthDate;
  if (profile.nationalIdentifier !== null) view.NationalIdentifier = profile.nationalIdentifier;
  if (profile.company !== null) view.Company = profile.company;
  return view;
}

function toAddressView(address: StoredAddress): AddressView {
  const view: AddressView = { Street: address.street, City: address.city, Country: address.country };
  if (address.region !== undefined && address.region !== null) view.Region = address.region;
  if (address.postcode !== undefined && address.postcode !== null) view.Postcode = address.postcode;
  return view;
}
