import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, MoreThan } from 'typeorm';
import { MerchantService } from '../../auth/merchant.service';
import { TransactionRunner } from '../../common/database/transaction-runner';
import { SUPPORTED_CURRENCIES } from '../../common/money/currencies';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { crossRate, RATE_SOURCE, RateSource } from './rate-source';
import { RateOffer } from './rate.entities';

/** Offers are guaranteed this long (the real API's 24 hours). */
export const OFFER_LIFETIME_MS = 24 * 3600 * 1000;
/** A new batch is made once the newest has less than this left, so a merchant always gets ≥ 18 h. */
const FRESHNESS_MS = 18 * 3600 * 1000;

export type RatesView =
  | { RateOffers: { Id: string; Currency: string; Rate: number; Expiry: string }[] }
  | { Rates: { Currency: string; Rate: number }[]; Indicative: true };

/**
 * getRates: for a guaranteed-rate merchant, offers for every supported currency against its remittance
 * currency, shared by all merchants with that remittance currency and renewed every 6 hours; for a spot
 * merchant, indicative rates only (the rate is fixed at settlement).
 */
@Injectable()
export class RatesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly merchants: MerchantService,
    @Inject(RATE_SOURCE) private readonly source: RateSource,
  ) {}

  async rates(merchantId: string, now = new Date()): Promise<RatesView> {
    const merchant = await this.merchants.findById(merchantId);
    if (!merchant) throw new CheckoutError(CheckoutErrorCode.MerchantNotFound, 'No merchant has this MerchantId');
    const remittance = merchant.remittanceCurrency;

    if (merchant.rateMode === 'spot') {
      const table = await this.source.current();
      return {
        Indicative: true,
        Rates: this.quoted(remittance).map((currency) => ({ Currency: currency, Rate: crossRate(table, remittance, currency).toNumber() })),
      };
    }
    const offers = (await this.freshOffers(remittance, now)) ?? (await this.newBatch(remittance, now));
    return {
      RateOffers: offers
        .sort((a, b) => a.currency.localeCompare(b.currency))
        .map((offer) => ({ Id: offer.id, Currency: offer.currency, Rate: Number(offer.rate), Expiry: offer.expiresAt.toISOString() })),
    };
  }

  /** The newest batch for this remittance currency, if it is still good for FRESHNESS_MS. */
  /**
   * The offer a checkout names in RateOfferId: it must exist, be unexpired and be against the merchant's
   * remittance currency (else RateOfferNotFound), and be for the currency paid in (else CurrencyMismatch).
   */
  async acceptedOffer(id: string, remittanceCurrency: string, consumerCurrency: string, now: Date): Promise<RateOffer> {
    const offer = await this.dataSource.getRepository(RateOffer).findOneBy({ id });
    if (!offer || offer.remittanceCurrency !== remittanceCurrency || offer.expiresAt.getTime() <= now.getTime()) {
      throw new CheckoutError(CheckoutErrorCode.RateOfferNotFound, 'No unexpired rate offer has this RateOfferId: call getRates for a fresh one');
    }
    if (offer.currency !== consumerCurrency) {
      throw new CheckoutError(CheckoutErrorCode.CurrencyMismatch, `Rate offer ${id} is for ${offer.currency}, not ${consumerCurrency}`);
    }
    return offer;
  }

  private async freshOffers(remittance: string, now: Date): Promise<RateOffer[] | null> {
    const newest = await this.dataSource.getRepository(RateOffer).findOne({
      where: { remittanceCurrency: remittance, expiresAt: MoreThan(new Date(now.getTime() + FRESHNESS_MS)) },
      order: { expiresAt: 'DESC' },
    });
    if (!newest) return null;
    return this.dataSource.getRepository(RateOffer).findBy({ remittanceCurrency: remittance, expiresAt: newest.expiresAt });
  }

  /** Two instances may make a batch at the same moment: both are valid offers, the newest is answered. */
  private async newBatch(remittance: string, now: Date): Promise<RateOffer[]> {
    const table = await this.source.current();
    const expiresAt = new Date(now.getTime() + OFFER_LIFETIME_MS);
    const offers = this.quoted(remittance).map((currency) =>
      Object.assign(new RateOffer(), {
        id: randomUUID(),
        remittanceCurrency: remittance,
        currency,
        rate: crossRate(table, remittance, currency).toString(),
        expiresAt,
      }),
    );
    await this.transactions.run((manager) => manager.getRepository(RateOffer).insert(offers));
    return offers;
  }

  private quoted(remittance: string): string[] {
    return [...SUPPORTED_CURRENCIES].filter((currency) => currency !== remittance);
  }
}
