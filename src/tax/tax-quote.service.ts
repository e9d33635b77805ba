import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { TransactionRunner } from '../common/database/transaction-runner';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { fromMinorUnits } from '../common/money/money';
import { TaxQuoteRequestDto } from './dto/tax-quote-request.dto';
import { TaxQuoteView } from './dto/tax-quote-response.dto';
import { TAX_RATE_STRATEGY, TaxRateStrategy } from './rates/tax-rate.strategy';
import { calculateQuote } from './tax-calculator';
import { checkTaxQuoteRequest } from './tax-quote-input';
import { TaxQuote } from './tax-quote.entity';

/** What other modules learn about a quote (sessions refer to one). */
export interface TaxQuoteSummary {
  id: string;
  currency: string;
  taxAmountMinor: number;
}

@Injectable()
export class TaxQuoteService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    @Inject(TAX_RATE_STRATEGY) private readonly rates: TaxRateStrategy,
  ) {}

  async quote(principal: Principal, dto: TaxQuoteRequestDto): Promise<TaxQuoteView> {
    const input = checkTaxQuoteRequest(dto, (country) => this.rates.needsRegion(country));
    const now = new Date();
    const quoted = calculateQuote(input, this.rates, now);
    const money = (minor: number) => fromMinorUnits(minor, input.currency);

    const amount = quoted.reduce((sum, item) => sum + item.net, 0);
    const taxAmount = quoted.reduce((sum, item) => sum + item.tax, 0);
    const id = randomUUID();
    const view: TaxQuoteView = {
      Id: id,
      Currency: input.currency,
      ...(dto.Reference !== undefined && { Reference: dto.Reference }),
      Items: dto.Items.map((item, i) => ({
        Id: randomUUID(),
        Sku: item.Sku,
        ...(item.Description !== undefined && { Description: item.Description }),
        TaxIncluded: input.items[i].taxIncluded,
        Quantity: input.items[i].quantity,
        Amount: money(quoted[i].net),
        TaxCode: quoted[i].taxCode,
        TaxAmount: money(quoted[i].tax),
        Tax: quoted[i].lines.map((line) => ({ Name: line.name, Type: line.type, TaxAmount: money(line.amount) })),
      })),
      ShippingAddress: dto.ShippingAddress,
      ...(dto.WarehouseAddress && { WarehouseAddress: dto.WarehouseAddress }),
      ...(dto.BusinessIdentificationNumber !== undefined && { BusinessIdentificationNumber: dto.BusinessIdentificationNumber }),
      Amount: money(amount),
      TaxAmount: money(taxAmount),
      CreatedAt: now.toISOString(),
    };
    const entity = Object.assign(new TaxQuote(), {
      id,
      merchantId: principal.merchantId!,
      reference: dto.Reference ?? null,
      currency: input.currency,
      amount,
      taxAmount,
      body: JSON.stringify(view),
      createdAt: now,
    });
    await this.transactions.run((manager) => manager.getRepository(TaxQuote).insert(entity));
    return view;
  }

  async get(principal: Principal, id: string): Promise<TaxQuoteView> {
    const where = principal.merchantId ? { id, merchantId: principal.merchantId } : { id };
    const quote = await this.dataSource.getRepository(TaxQuote).findOneBy(where);
    if (!quote) throw new DomainError(ErrorCode.TaxQuoteNotFound);
    return JSON.parse(quote.body) as TaxQuoteView;
  }

  /** The merchant's quote with this id, or null. */
  async findSummary(merchantId: string, id: string): Promise<TaxQuoteSummary | null> {
    const quote = await this.dataSource.getRepository(TaxQuote).findOneBy({ id, merchantId });
    return quote && { id: quote.id, currency: quote.currency, taxAmountMinor: quote.taxAmount };
  }
}
