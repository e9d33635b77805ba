import { Body, Controller, Get, Header, Headers, HttpCode, Ip, NotFoundException, Param, Post, Query, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isUUID } from 'class-validator';
import { BadgeService } from '../checkout/badge/badge.service';
import { SessionState } from '../session/session-state';
import { PAYMENT_PAGE_CSP } from './page-security';
import { notFoundPage, paymentPage, statePage } from './payment-page.view';
import { PaymentInput, PaymentRefused, SessionPaymentService } from './session-payment.service';

/** The browser files, read once at start (they ship beside this module, see nest-cli.json assets). */
const PUBLIC = join(__dirname, 'public');
const ASSETS: Record<string, { type: string; body: string }> = Object.fromEntries(
  [
    ['pay.js', 'application/javascript; charset=utf-8'],
    ['pay.css', 'text/css; charset=utf-8'],
    ['component.js', 'application/javascript; charset=utf-8'],
  ].map(([file, type]) => [file, { type, body: readFileSync(join(PUBLIC, file), 'utf8') }]),
);

/** The shopper's locale: ?locale= when the merchant passed one, else the browser's first language. */
function shopperLocale(requested: string | undefined, acceptLanguage: string | undefined): string {
  const candidates = [requested, acceptLanguage?.split(',')[0]?.split(';')[0]?.trim()].filter((c): c is string => !!c && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(c));
  for (const candidate of candidates) {
    const [supported] = Intl.NumberFormat.supportedLocalesOf(candidate);
    if (supported) return supported;
  }
  return 'en-US';
}

/**
 * The payment component (DESIGN.md section 6): /component.js for merchant pages, and the hosted page
 * /pay/{SessionId} it frames, where the shopper sees the order, the merchant-of-record badge and pays.
 */
@ApiExcludeController()
@Controller({ version: VERSION_NEUTRAL })
export class PaymentPageController {
  constructor(
    private readonly payments: SessionPaymentService,
    private readonly badges: BadgeService,
  ) {}

  /** `PaymentComponent.mount(element, { sessionId, locale?, theme? })` for merchant pages. */
  @Get('component.js')
  @Header('Cache-Control', 'public, max-age=300')
  component(@Res() response: Response): void {
    response.type(ASSETS['component.js'].type).send(ASSETS['component.js'].body);
  }

  @Get('pay/assets/:file')
  @Header('Cache-Control', 'public, max-age=300')
  asset(@Param('file') file: string, @Res() response: Response): void {
    const asset = file === 'component.js' ? undefined : ASSETS[file];
    if (!asset) throw new NotFoundException();
    response.type(asset.type).send(asset.body);
  }

  @Get('pay/:sessionId')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', PAYMENT_PAGE_CSP)
  @Header('Referrer-Policy', 'no-referrer')
  async page(
    @Param('sessionId') sessionId: string,
    @Query('locale') locale: string | undefined,
    @Query('theme') theme: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Ip() ip: string,
    @Res() response: Response,
  ): Promise<void> {
    const page = isUUID(sessionId) ? await this.payments.forPage(sessionId) : null;
    if (!page) {
      response.status(404).type('html').send(notFoundPage());
      return;
    }
    const options = {
      locale: shopperLocale(locale, acceptLanguage),
      theme: theme === 'dark' ? ('dark' as const) : ('light' as const),
      badge: await this.badges.badge(page.merchant.id, theme === 'dark' ? 'dark' : 'light', ip),
    };
    const html = page.session.state === SessionState.Created
      ? paymentPage(page, { ...options, methods: this.payments.methodsFor(page) })
      : statePage(page, options);
    response.type('html').send(html);
  }

  /** The page's payment: {PaymentMethod: "CARD" | method code, Card?: {Name, Number, VerificationCode, Expiry{Month, Year}}}. */
  @Post('pay/:sessionId')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async pay(@Param('sessionId') sessionId: string, @Body() body: PaymentInput, @Res() response: Response): Promise<void> {
    if (!isUUID(sessionId)) throw new NotFoundException();
    try {
      response.json(await this.payments.pay(sessionId, body ?? {}));
    } catch (error) {
      if (!(error instanceof PaymentRefused)) throw error;
      response.status(error.status).json(error.body);
    }
  }
}
