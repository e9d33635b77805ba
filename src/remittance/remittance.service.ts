import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import { MerchantService } from '../auth/merchant.service';
import { crossRate, RATE_SOURCE, RateSource, RateTable } from '../checkout/rates/rate-source';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../common/config/app-config';
import { TransactionRunner } from '../common/database/transaction-runner';
import { OrderState } from '../orders/order-state';
import { Order } from '../orders/order.entity';
import { Refund, RefundState } from '../orders/refund.entity';
import { calculateRemittance, SAME_CURRENCY_RATE, SettlementItem } from './remittance-calculator';
import { RemittanceLine } from './remittance-line.entity';
import { Remittance, RemittanceState } from './remittance.entity';
import { Report } from './report.entity';

export interface RemittanceRunOptions {
  /** Only this merchant (default: every merchant with something to settle). */
  merchantId?: string;
  /** Cut-off: orders processed and refunds completed up to this time (default: now). */
  to?: Date;
}

export interface Settled {
  remittance: Remittance;
  report: Report;
}

/** What is still to settle for one merchant in one remittance currency, as read before the claim. */
interface Candidates {
  merchantId: string;
  currency: string;
  orderIds: string[];
  refundIds: string[];
}

/** Rows per claiming UPDATE and per INSERT of lines: well inside every driver's parameter limit. */
const BATCH = 500;

/**
 * The remittance run: settles, per merchant and remittance currency, the Processed orders and Succeeded
 * refunds no remittance has claimed yet. Exactly once even when runs overlap (two instances, the job and
 * the command line): each remittance claims its rows with a conditional UPDATE (`remittance_id IS NULL`)
 * inside its own transaction and computes its lines only from the rows it actually claimed, so a row is
 * either claimed by this remittance or by one that committed before. A remittance with nothing claimed
 * is not created.
 */
@Injectable()
export class RemittanceService {
  private readonly logger = new Logger(RemittanceService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly merchants: MerchantService,
    @Inject(RATE_SOURCE) private readonly rates: RateSource,
  ) {}

  /** Runs once; returns the remittances made (none when nothing was left to settle). */
  async run(options: RemittanceRunOptions = {}): Promise<Settled[]> {
    const now = this.clock.now();
    const to = options.to ?? now;
    if (to.getTime() > now.getTime()) throw new RemittanceRunError('The cut-off time must not be in the future');
    if (options.merchantId && !(await this.merchants.findById(options.merchantId.toLowerCase()))) {
      throw new RemittanceRunError(`No merchant has the id ${options.merchantId}`);
    }
    const groups = await this.candidates(to, options.merchantId?.toLowerCase());
    if (groups.length === 0) return [];
    // One table for the whole run: the reference rate of the day for orders without a rate offer.
    const table = await this.rates.current();
    const settled: Settled[] = [];
    for (const group of groups) {
      const made = await this.settle(group, to, table);
      if (made) settled.push(made);
    }
    if (settled.length) this.logger.log(`remittance run up to ${to.toISOString()}: ${settled.length} remittance(s)`);
    return settled;
  }

  /** Plain reads (no locks): what looks unsettled now, grouped by merchant and remittance currency. */
  private async candidates(to: Date, merchantId: string | undefined): Promise<Candidates[]> {
    const orders = this.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .select(['o.id AS id', 'o.merchant_id AS merchantId', 'o.remittance_currency AS currency'])
      .where('o.state = :processed AND o.remittance_id IS NULL', { processed: OrderState.Processed })
      // processed_at is always set with Processed; an order without one is settled rather than forgotten.
      .andWhere('(o.processed_at <= :to OR o.processed_at IS NULL)', { to });
    const refunds = this.dataSource
      .getRepository(Refund)
      .createQueryBuilder('r')
      .innerJoin(Order, 'o', 'o.id = r.order_id')
      .select(['r.id AS id', 'o.merchant_id AS merchantId', 'o.remittance_currency AS currency'])
      .where('r.state = :succeeded AND r.remittance_id IS NULL AND r.completed_at <= :to', { succeeded: RefundState.Succeeded, to });
    if (merchantId) {
      orders.andWhere('o.merchant_id = :merchantId', { merchantId });
      refunds.andWhere('o.merchant_id = :merchantId', { merchantId });
    }
    type Row = { id: string; merchantId: string; currency: string };
    const groups = new Map<string, Candidates>();
    const groupOf = (row: Row) => {
      const key = `${row.merchantId}|${row.currency}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { merchantId: row.merchantId, currency: row.currency, orderIds: [], refundIds: [] }));
      return group;
    };
    for (const row of await orders.getRawMany<Row>()) groupOf(row).orderIds.push(row.id);
    for (const row of await refunds.getRawMany<Row>()) groupOf(row).refundIds.push(row.id);
    return [...groups.values()];
  }

  /** One remittance, in one transaction: claim, compute from what was claimed, write remittance, lines and report. */
  private settle(group: Candidates, to: Date, table: RateTable): Promise<Settled | null> {
    return this.transactions.run(async (manager) => {
      const remittanceId = randomUUID();
      // Sorted ids: overlapping claims lock rows in the same order, so they wait for each other rather than deadlock.
      for (const ids of batches([...group.orderIds].sort())) {
        await manager
          .createQueryBuilder()
          .update(Order)
          .set({ remittanceId })
          .where('id IN (:...ids) AND state = :state AND remittance_id IS NULL', { ids, state: OrderState.Processed })
          .execute();
      }
      for (const ids of batches([...group.refundIds].sort())) {
        await manager
          .createQueryBuilder()
          .update(Refund)
          .set({ remittanceId })
          .where('id IN (:...ids) AND state = :state AND remittance_id IS NULL', { ids, state: RefundState.Succeeded })
          .execute();
      }
      // From here on only what this transaction claimed counts.
      const orders = await manager.getRepository(Order).findBy({ state: OrderState.Processed, remittanceId });
      const refunds = await manager.getRepository(Refund).findBy({ state: RefundState.Succeeded, remittanceId });
      if (orders.length === 0 && refunds.length === 0) return null;

      await this.fixRates(manager, orders, group.currency, table);
      const refundOrders = await this.ordersOf(manager, refunds, orders);
      const payments = orders.map((order) => settlementItem(order, null));
      const refundItems = refunds.map((refund) => {
        const order = refundOrders.get(refund.orderId)!;
        return settlementItem(order, refund, order.rate ?? rateFor(table, group.currency, order.currency));
      });
      const { lines, totals } = calculateRemittance(group.currency, payments, refundItems, this.config.remittance.fee);

      const now = this.clock.now();
      const previous = await manager.getRepository(Remittance).findOne({
        where: { merchantId: group.merchantId, currency: group.currency },
        order: { periodTo: 'DESC' },
      });
      const earliest = lines.reduce((min, line) => Math.min(min, line.occurredAt.getTime()), to.getTime());
      // Consecutive periods; a row committed late (dated before the previous cut-off) widens this one.
      const periodFrom = new Date(Math.min(earliest, previous ? previous.periodTo.getTime() : earliest));
      const remittance = Object.assign(new Remittance(), {
        id: remittanceId,
        merchantId: group.merchantId,
        currency: group.currency,
        periodFrom,
        periodTo: to,
        ...totals,
        state: RemittanceState.Completed,
        createdAt: now,
      });
      await manager.getRepository(Remittance).insert({ ...remittance });
      const rows = lines.map((line, position) =>
        Object.assign(new RemittanceLine(), { ...line, id: line.refundId ?? line.orderId, remittanceId, position: position + 1 }),
      );
      for (const chunk of batches(rows)) await manager.getRepository(RemittanceLine).insert(chunk.map((row) => ({ ...row })));
      const report = Object.assign(new Report(), {
        id: randomUUID(),
        remittanceId,
        merchantId: group.merchantId,
        currency: group.currency,
        periodFrom,
        periodTo: to,
        createdAt: now,
      });
      await manager.getRepository(Report).insert({ ...report });
      return { remittance, report };
    });
  }

  /**
   * Orders paid without a rate offer get the reference rate of the run ("the rate of the day"), written
   * on the order so that its later refunds are converted at the same rate.
   */
  private async fixRates(manager: EntityManager, orders: Order[], remittanceCurrency: string, table: RateTable): Promise<void> {
    const byCurrency = new Map<string, Order[]>();
    for (const order of orders.filter((o) => o.rate === null)) byCurrency.set(order.currency, [...(byCurrency.get(order.currency) ?? []), order]);
    for (const [currency, unrated] of byCurrency) {
      const rate = rateFor(table, remittanceCurrency, currency);
      for (const ids of batches(unrated.map((order) => order.id).sort())) {
        await manager.createQueryBuilder().update(Order).set({ rate }).where('id IN (:...ids) AND rate IS NULL', { ids }).execute();
      }
      for (const order of unrated) order.rate = rate;
    }
  }

  /** The orders of the claimed refunds: most were settled before (or just now), and carry their rate. */
  private async ordersOf(manager: EntityManager, refunds: Refund[], claimed: Order[]): Promise<Map<string, Order>> {
    const known = new Map(claimed.map((order) => [order.id, order]));
    const missing = [...new Set(refunds.map((refund) => refund.orderId))].filter((id) => !known.has(id));
    for (const ids of batches(missing)) {
      for (const order of await manager.getRepository(Order).findBy({ id: In(ids) })) known.set(order.id, order);
    }
    return known;
  }
}

/** A bad --merchant or --to: reported as is by the command line. */
export class RemittanceRunError extends Error {}

/** Units of `currency` per one unit of the remittance currency, from the reference table (8 significant digits, like the offers). */
function rateFor(table: RateTable, remittanceCurrency: string, currency: string): string {
  return currency === remittanceCurrency ? SAME_CURRENCY_RATE : crossRate(table, remittanceCurrency, currency).toFixed();
}

function settlementItem(order: Order, refund: Refund | null, rate = order.rate): SettlementItem {
  return {
    orderId: order.id,
    refundId: refund?.id ?? null,
    merchantReference: order.referenceId,
    occurredAt: refund ? (refund.completedAt ?? refund.createdAt) : (order.processedAt ?? order.createdAt),
    consumerMinor: refund ? refund.amountMinor : order.totalMinor,
    consumerCurrency: order.currency,
    rate: rate!,
    rateOfferId: order.rateOfferId,
  };
}

function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}
