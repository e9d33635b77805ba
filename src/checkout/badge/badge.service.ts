import { Injectable } from '@nestjs/common';
import * as geoip from 'geoip-country';
import { MerchantService } from '../../auth/merchant.service';
import { AppConfig } from '../../common/config/app-config';
import { escapeHtml } from '../../common/http/html';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { BadgeView } from './badge.dto';


/**
 * The merchant-of-record badge and disclaimer (spec 1.6: shown on the checkout page itself before
 * payment). The shopper's country, from ConsumerIpAddress or the caller's address, picks the flag.
 */
@Injectable()
export class BadgeService {
  constructor(
    private readonly merchants: MerchantService,
    private readonly config: AppConfig,
  ) {}

  async badge(merchantId: string, theme: 'light' | 'dark', ipAddress: string | undefined): Promise<BadgeView> {
    const merchant = await this.merchants.findById(merchantId);
    if (!merchant) throw new CheckoutError(CheckoutErrorCode.MerchantNotFound, 'No merchant has this MerchantId');
    const mor = this.config.merchantOfRecord;
    const country = (ipAddress && geoip.lookup(ipAddress)?.country) || null;
    const assets = `${this.config.publicUrl}/assets`;
    const imageUrl = `${assets}/badge-${theme}.svg`;
    const flagImageUrl = `${assets}/flags/${(country ?? 'un').toLowerCase()}.svg`;
    const text = disclaimer(mor.name, merchant.name);

    const html =
      `<div class="mor-badge mor-badge--${theme}" role="note" lang="en">` +
      `<img src="${escapeHtml(imageUrl)}" alt="" width="20" height="20"> ` +
      `<span>${escapeHtml(text)}</span> ` +
      `<a href="${escapeHtml(mor.termsUrl)}" target="_blank" rel="noopener">Terms of sale</a></div>`;

    return {
      Text: text,
      Html: html,
      ImageUrl: imageUrl,
      FlagImageUrl: flagImageUrl,
      TermsOfServiceUrl: mor.termsUrl,
      MerchantOfRecord: mor.name,
      MerchantOfRecordUrl: mor.url,
      MerchantName: merchant.name,
    };
  }
}

export function disclaimer(merchantOfRecord: string, merchantName: string): string {
  const statement = `Your card statement will show ${merchantOfRecord}`;
  return (
    `${merchantOfRecord} is the merchant of record for this order: it sells the items to you on behalf of ` +
    `${merchantName} and handles the payment, sales taxes and refunds. ${statement}${statement.endsWith('.') ? '' : '.'}`
  );
}
