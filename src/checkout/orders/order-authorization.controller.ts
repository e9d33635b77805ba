import { Body, Controller, Get, Header, HttpCode, NotFoundException, Param, Post, Query, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { escapeHtml } from '../../common/http/html';
import { formatMinorUnits } from '../../common/money/money';
import { OrderPaymentService } from '../../orders/order-payment.service';
import { Order } from '../../orders/order.entity';
import { CheckoutError } from '../checkout-errors';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1rem;padding:.6rem 1.2rem;margin:.25rem .5rem .25rem 0}</style></head>
<body><main>${body}</main></body></html>`;

/**
 * The shopper's side of a checkout order's Action: the 3-D Secure challenge or the redirect approval.
 * In the sandbox the "issuer" and the "wallet" are simulated here with Approve / Decline buttons.
 * When done the shopper goes to the checkout's Return URL with a signed `response` (as the real API).
 */
@ApiExcludeController()
@Controller({ path: 'pay/order', version: VERSION_NEUTRAL })
export class OrderAuthorizationController {
  constructor(
    private readonly payments: OrderPaymentService,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  @Get(':orderId')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async show(@Param('orderId') orderId: string, @Query('token') token = ''): Promise<string> {
    const order = await this.payments.pendingAuthentication(orderId, token);
    if (!order) throw new NotFoundException();
    const challenge = order.action !== null && 'Challenge' in order.action;
    const amount = `${formatMinorUnits(order.totalMinor, order.currency)} ${order.currency}`;
    return page(
      challenge ? '3-D Secure check (sandbox)' : `${order.paymentMethod} approval (sandbox)`,
      `<h1>${challenge ? '3-D Secure check' : `Approve with ${escapeHtml(order.paymentMethod)}`}</h1>
<p>Sandbox simulation: ${challenge ? 'your card issuer asks you to confirm' : 'your wallet or bank asks you to approve'} a payment of
<strong>${escapeHtml(amount)}</strong> for order ${escapeHtml(order.referenceId)}.</p>
<form method="post"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="decline">Decline</button></form>`,
    );
  }

  @Post(':orderId')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async decide(@Param('orderId') orderId: string, @Body() body: Record<string, unknown>, @Res() response: Response): Promise<void> {
    const token = typeof body.token === 'string' ? body.token : '';
    let order: Order;
    try {
      order = await this.payments.completeAuthentication(orderId, token, body.decision === 'approve');
    } catch (error) {
      if (error instanceof CheckoutError) throw new NotFoundException();
      throw error;
    }
    const result = { OrderId: order.id, OrderState: order.state, UnderReview: order.underReview, ...(order.contractId ? { ContractId: order.contractId } : {}) };
    const outcome = order.state === 'ProcessingFailed' ? 'The payment was not completed.' : 'The payment was approved.';
    if (!order.details.Return) {
      response.type('html').send(page('Payment', `<h1>${outcome}</h1><p>You may close this window.</p>`));
      return;
    }
    // The merchant verifies `response` with its secret, as for every Checkout answer.
    const text = JSON.stringify(result);
    const target = new URL(order.details.Return);
    target.searchParams.set('response', text);
    target.searchParams.set('signature', await this.signingSecrets.sign(order.merchantId, text));
    // A page rather than a 303: the page's CSP form-action would block a redirect to the merchant's site.
    const href = escapeHtml(target.toString());
    response
      .type('html')
      .send(page('Payment', `<h1>${outcome}</h1><p><a href="${href}">Return to the shop</a></p>`).replace('</title>', `</title><meta http-equiv="refresh" content="0;url=${href}">`));
  }
}
