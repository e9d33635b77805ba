import { escapeHtml } from '../common/http/html';
import { fromMinorUnits } from '../common/money/money';
import { PaymentMethodDefinition } from '../checkout/payment-methods/payment-method-catalogue';
import { BadgeView } from '../checkout/badge/badge.dto';
import { SessionState } from '../session/session-state';
import { CARD, SessionForPage, withSessionId } from './session-payment.service';

export interface PageOptions {
  locale: string;
  theme: 'light' | 'dark';
  badge: BadgeView;
  methods: PaymentMethodDefinition[];
}

/** A whole page: the service's stylesheet and script only (see PAYMENT_PAGE_CSP). */
export function layout(title: string, locale: string, theme: 'light' | 'dark', body: string, data: Record<string, string> = {}): string {
  const attributes = Object.entries(data)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/pay/assets/pay.css">
<script src="/pay/assets/pay.js" defer></script>
</head>
<body class="theme-${theme}">
<main id="payment"${attributes}>
${body}
</main>
</body>
</html>`;
}

/** The session's amounts in its currency, formatted for the shopper's locale. */
function money(page: SessionForPage, locale: string) {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: page.session.currency });
  return (minor: number) => format.format(fromMinorUnits(minor, page.session.currency));
}

function summary(page: SessionForPage, locale: string): string {
  const { session } = page;
  const amount = money(page, locale);
  const rows = session.items.map(
    (item) => `<tr><th scope="row">${escapeHtml(item.name)}</th><td>${item.quantity} × ${escapeHtml(amount(item.amount))}</td><td>${escapeHtml(amount(item.amount * item.quantity))}</td></tr>`,
  );
  if (session.shipping) {
    rows.push(`<tr><th scope="row">Shipping</th><td></td><td>${escapeHtml(amount(session.shipping.shippingAmount))}</td></tr>`);
    if (session.shipping.dutyAmount) rows.push(`<tr><th scope="row">Duty</th><td></td><td>${escapeHtml(amount(session.shipping.dutyAmount))}</td></tr>`);
  }
  if (session.taxAmount !== null) rows.push(`<tr><th scope="row">Tax</th><td></td><td>${escapeHtml(amount(session.taxAmount))}</td></tr>`);
  for (const discount of session.discounts ?? []) {
    rows.push(`<tr><th scope="row">${escapeHtml(discount.name)}</th><td></td><td>−${escapeHtml(amount(discount.amount))}</td></tr>`);
  }
  return `<section aria-labelledby="summary-title" class="summary">
<h2 id="summary-title">Order summary</h2>
<table>
<thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col">Amount</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
<tfoot><tr><th scope="row">Total</th><td></td><td id="total">${escapeHtml(amount(session.totalAmount))}</td></tr></tfoot>
</table>
</section>`;
}

/** Spec 1.6: the merchant-of-record badge and its disclaimer in full, on the page, before paying. */
function badge(view: BadgeView): string {
  return `<section aria-label="Merchant of record" class="badge">${view.Html}</section>`;
}

function bankDetails(details: Record<string, string>): string {
  const rows = Object.entries(details).map(([name, value]) => `<dt>${escapeHtml(name.replace(/([a-z])([A-Z])/g, '$1 $2'))}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<section aria-labelledby="bank-title" class="bank-details"><h2 id="bank-title">Bank transfer details</h2>
<p>Transfer the total to this account, quoting the payment reference. Your order is confirmed when the money arrives.</p>
<dl>${rows.join('')}</dl></section>`;
}

/** The form of a CREATED session: payment methods, card fields, Pay and Cancel. */
export function paymentPage(page: SessionForPage, options: PageOptions): string {
  const { session, merchant } = page;
  const cards = options.methods.filter((method) => method.class === 'Card');
  const others = options.methods.filter((method) => method.class !== 'Card');
  const radio = (value: string, label: string, checked: boolean, detail = '') =>
    `<label class="method"><input type="radio" name="method" value="${escapeHtml(value)}"${checked ? ' checked' : ''}> ${escapeHtml(label)}${detail}</label>`;
  const methodRadios = [
    ...(cards.length ? [radio(CARD, 'Card', true, ` <span class="brands">(${escapeHtml(cards.map((card) => card.label).join(', '))})</span>`)] : []),
    ...others.map((method, i) => radio(method.name, method.label, !cards.length && i === 0)),
  ];
  const body = `<h1>Pay ${escapeHtml(merchant.name)}</h1>
${summary(page, options.locale)}
${badge(options.badge)}
<form id="payment-form" novalidate>
<fieldset class="methods"><legend>Payment method</legend>
${methodRadios.join('\n')}
</fieldset>
<fieldset id="card-fields" class="card"${cards.length ? '' : ' hidden'}><legend>Card details</legend>
<div class="field"><label for="card-name">Name on card</label>
<input id="card-name" name="name" autocomplete="cc-name" required aria-describedby="card-name-error">
<p id="card-name-error" class="error"></p></div>
<div class="field"><label for="card-number">Card number</label>
<input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required aria-describedby="card-number-brand card-number-error">
<p id="card-number-brand" class="hint" aria-live="polite"></p>
<p id="card-number-error" class="error"></p></div>
<div class="row">
<div class="field"><label for="card-expiry">Expiry date</label>
<input id="card-expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required aria-describedby="card-expiry-hint card-expiry-error">
<p id="card-expiry-hint" class="hint">MM/YY</p>
<p id="card-expiry-error" class="error"></p></div>
<div class="field"><label for="card-cvc">Security code</label>
<input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required aria-describedby="card-cvc-error">
<p id="card-cvc-error" class="error"></p></div>
</div>
</fieldset>
<p id="method-error" class="error"></p>
<div id="form-message" role="alert" class="message"></div>
<div class="actions"><button type="submit" id="pay">Pay</button> <button type="button" id="cancel" class="secondary">Cancel</button></div>
</form>
<div id="result" hidden></div>`;
  return layout(`Pay ${merchant.name}`, options.locale, options.theme, body, {
    'session-id': session.id,
    'cancel-url': withSessionId(session.cancelUrl, session.id),
    state: session.state,
  });
}

const STATE_MESSAGES: Partial<Record<SessionState, [string, string]>> = {
  [SessionState.Completed]: ['Payment received', 'This session is paid. There is nothing more to pay.'],
  [SessionState.Processing]: ['Payment in progress', 'A payment for this session is being processed. Do not pay again.'],
  [SessionState.Redirected]: ['Waiting for confirmation', 'This payment is waiting for you to confirm it with your bank or wallet.'],
  [SessionState.Failed]: ['Payment failed', 'This payment could not be completed. Ask the shop to start a new payment.'],
  [SessionState.Cancelled]: ['Payment cancelled', 'The shop cancelled this payment. No money was taken.'],
  [SessionState.Expired]: ['Payment expired', 'This payment session has expired. No money was taken. Ask the shop to start a new payment.'],
};

/** Any state but CREATED: an honest message and never a form that takes money. */
export function statePage(page: SessionForPage, options: Pick<PageOptions, 'locale' | 'theme' | 'badge'>): string {
  const { session, order, merchant } = page;
  const [title, message] = STATE_MESSAGES[session.state] ?? ['Payment', 'This session cannot take a payment.'];
  const action = session.state === SessionState.Redirected && order?.action && ('Challenge' in order.action || 'Redirect' in order.action)
    ? `<p><a href="${escapeHtml('Challenge' in order.action ? order.action.Challenge : order.action.Redirect)}">Continue to confirm the payment</a></p>`
    : '';
  const complete = session.state === SessionState.Completed
    ? `<p><a id="continue" href="${escapeHtml(withSessionId(session.completeUrl, session.id))}" target="_top">Return to ${escapeHtml(merchant.name)}</a></p>`
    : '';
  const body = `<h1>${escapeHtml(title)}</h1>
<p class="state" data-state="${session.state}">${escapeHtml(message)}</p>
${action}
${session.state === SessionState.Completed && order?.bankDetails ? bankDetails(order.bankDetails) : ''}
${complete}
${summary(page, options.locale)}
${badge(options.badge)}`;
  return layout(title, options.locale, options.theme, body, { 'session-id': session.id, state: session.state });
}

/** A page for an unknown session id. */
export function notFoundPage(): string {
  return layout('Payment not found', 'en', 'light', '<h1>Payment not found</h1><p>There is no payment session at this address.</p>');
}
