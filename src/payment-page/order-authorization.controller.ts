import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { SigningSecretService } from '../auth/signing-secret.service';
import { CheckoutError } from '../checkout/checkout-errors';
import { escapeHtml } from '../common/http/html';
import { formatMinorUnits } from '../common/money/money';
import { OrderPaymentService } from '../orders/order-payment.service';
import { OrderState } from '../orders/order-state';
import { Order } from '../orders/order.entity';
import { PAYMENT_PAGE_CSP } from './page-security';
import { layout } from './payment-page.view';
import { SessionPaymentService } from './session-payment.service';

/**
 * A link whose step is over (finished, abandoned and ended by the abandoned-authentications job, or
 * cancelled), or a wrong token: 404, saying so in words. It names no session, as the token is not checked.
 */
const NOT_WAITING = layout(
  'Confirmation no longer open',
  'en',
  'light',
  '<h1>This confirmation is no longer open</h1><p role="alert">This payment step was already answered, or it was not completed in time ' +
    'and has been ended without taking a payment. Go back to the shop to see whether your payment went through, or to try again.</p>',
  { outcome: 'error' },
);

/**
 * The shopper's side of an order's Action: the 3-D Secure challenge or the redirect approval, for
 * checkout orders and for sessions paid on the hosted page. In the sandbox the "issuer" and the
 * "wallet" are simulated here with Approve / Decline buttons. Afterwards a checkout shopper goes to
 * the checkout's Return URL with a signed `response` (as the real API); a session shopper goes on to
 * CompleteUrl, or back to the payment page to try again.
 */
@ApiExcludeController()
@Controller({ path: 'pay/order', version: VERSION_NEUTRAL })
export class OrderAuthorizationController {
  constructor(
    private readonly payments: OrderPaymentService,
    private readonly sessionPayments: SessionPaymentService,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  @Get(':orderId')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', PAYMENT_PAGE_CSP)
  async show(@Param('orderId') orderId: string, @Query('token') token = '', @Res() response: Response): Promise<void> {
    const order = await this.payments.pendingAuthentication(orderId, token);
    if (!order) {
      response.status(404).type('html').send(NOT_WAITING);
      return;
    }
    const challenge = order.action !== null && 'Challenge' in order.action;
    const amount = `${formatMinorUnits(order.totalMinor, order.currency)} ${order.currency}`;
    const title = challenge ? '3-D Secure check (sandbox)' : `${order.paymentMethod} approval (sandbox)`;
    const body = `<h1>${challenge ? '3-D Secure check' : `Approve with ${escapeHtml(order.paymentMethod)}`}</h1>
<p>Sandbox simulation: ${challenge ? 'your card issuer asks you to confirm' : 'your wallet or bank asks you to approve'} a payment of
<strong>${escapeHtml(amount)}</strong> for order ${escapeHtml(order.referenceId)}.</p>
<form method="post"><input type="hidden" name="token" value="${escapeHtml(token)}">
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="decline" class="secondary">Decline</button></div></form>`;
    response.type('html').send(layout(title, 'en', 'light', body));
  }

  @Post(':orderId')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', PAYMENT_PAGE_CSP)
  async decide(@Param('orderId') orderId: string, @Body() body: Record<string, unknown>, @Res() response: Response): Promise<void> {
    const token = typeof body.token === 'string' ? body.token : '';
    let order: Order;
    try {
      order = await this.payments.completeAuthentication(orderId, token, body.decision === 'approve');
    } catch (error) {
      if (error instanceof CheckoutError) {
        response.status(404).type('html').send(NOT_WAITING);
        return;
      }
      throw error;
    }
    if (order.sessionId) {
      response.type('html').send(await this.sessionDone(order));
      return;
    }
    response.type('html').send(await this.checkoutDone(order));
  }

  /** A session's shopper: the page script goes on to CompleteUrl (through the component) or back to the form. */
  private async sessionDone(order: Order): Promise<string> {
    const { outcome, sessionId } = await this.sessionPayments.afterAuthentication(order);
    const retry = `/pay/${sessionId}`;
    if (outcome.Outcome === 'COMPLETED') {
      return layout('Payment approved', 'en', 'light', `<h1>Payment approved</h1><p><a href="${escapeHtml(outcome.CompleteUrl)}" target="_top">Return to the shop</a></p>`, {
        outcome: 'complete',
        'session-id': sessionId,
        url: outcome.CompleteUrl,
      });
    }
    const message = outcome.Outcome === 'DECLINED' ? outcome.Message : 'The payment was not completed.';
    const again = outcome.Outcome === 'DECLINED' && outcome.CanRetry ? `<p><a id="retry" href="${escapeHtml(retry)}">Try again</a></p>` : '';
    return layout('Payment not completed', 'en', 'light', `<h1>Payment not completed</h1><p role="alert">${escapeHtml(message)}</p>${again}`, {
      outcome: again ? 'retry' : 'error',
      'session-id': sessionId,
    });
  }

  /** A checkout's shopper goes to Return with `response` + `signature`, verified like any answer. */
  private async checkoutDone(order: Order): Promise<string> {
    const outcome = order.state === OrderState.ProcessingFailed ? 'The payment was not completed.' : 'The payment was approved.';
    if (!order.details.Return) return layout('Payment', 'en', 'light', `<h1>${outcome}</h1><p>You may close this window.</p>`);
    const text = JSON.stringify({ OrderId: order.id, OrderState: order.state, UnderReview: order.underReview, ...(order.contractId ? { ContractId: order.contractId } : {}) });
    const target = new URL(order.details.Return);
    target.searchParams.set('response', text);
    target.searchParams.set('signature', await this.signingSecrets.sign(order.merchantId, text));
    // The page script follows the link: a 303 would be blocked by the page's CSP form-action.
    return layout('Payment', 'en', 'light', `<h1>${outcome}</h1><p><a id="return" href="${escapeHtml(target.toString())}">Return to the shop</a></p>`, {
      outcome: 'return',
      url: target.toString(),
    });
  }
}
