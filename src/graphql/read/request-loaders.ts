import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { Order } from '../../orders/order.entity';
import { Refund } from '../../orders/refund.entity';
import { RemittanceLine } from '../../remittance/remittance-line.entity';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { OrderReads } from '../orders/order-reads.service';
import { RemittanceReads } from '../remittances/remittance-reads.service';
import { SessionReads } from '../sessions/session-reads.service';

/**
 * One set of DataLoaders per GraphQL request, used by Relations to fill related objects (session →
 * billing profile and order, order → refunds and session, refund → order, remittance → report id and
 * lines): each batch is one query,
 * duplicates are loaded once, and what one level loaded is reused by another. Created per request, so
 * nothing is cached across requests or tenants; they are reached only through objects the root field
 * already authorized. (An interface, not a class: a class-typed resolver parameter would go through the
 * global validation pipe.)
 */
export interface RequestLoaders {
  session: DataLoader<string, PaymentSession | null>;
  billingProfile: DataLoader<string, BillingProfile | null>;
  order: DataLoader<string, Order | null>;
  orderOfSession: DataLoader<string, Order | null>;
  refundsOfOrder: DataLoader<string, Refund[]>;
  reportIdOfRemittance: DataLoader<string, string | null>;
  linesOfRemittance: DataLoader<string, RemittanceLine[]>;
}

/** Keeps each IN (…) list to a size every database takes. */
const OPTIONS = { maxBatchSize: 500 };

function one<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): (T | null)[] {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key) ?? null);
}

function many<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): T[][] {
  const byKey = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const row of rows) byKey.get(keyOf(row))?.push(row);
  return keys.map((key) => byKey.get(key)!);
}

/** Builds each request's loaders (the GraphQL context function calls it). */
@Injectable()
export class LoaderFactory {
  constructor(
    private readonly sessions: SessionReads,
    private readonly orders: OrderReads,
    private readonly remittances: RemittanceReads,
  ) {}

  forRequest(): RequestLoaders {
    const { sessions, orders, remittances } = this;
    return {
      session: new DataLoader(async (ids) => one(ids, await sessions.byIds(ids), (s) => s.id), OPTIONS),
      billingProfile: new DataLoader(async (ids) => one(ids, await sessions.billingProfilesByIds(ids), (p) => p.id), OPTIONS),
      order: new DataLoader(async (ids) => one(ids, await orders.byIds(ids), (o) => o.id), OPTIONS),
      orderOfSession: new DataLoader(async (ids) => one(ids, await orders.bySessionIds(ids), (o) => o.sessionId!), OPTIONS),
      refundsOfOrder: new DataLoader(async (ids) => many(ids, await orders.refundsByOrderIds(ids), (r) => r.orderId), OPTIONS),
      reportIdOfRemittance: new DataLoader(
        async (ids) => one(ids, await remittances.reportsByRemittanceIds(ids), (r) => r.remittanceId).map((report) => report?.id ?? null),
        OPTIONS,
      ),
      linesOfRemittance: new DataLoader(async (ids) => many(ids, await remittances.linesByRemittanceIds(ids), (l) => l.remittanceId), OPTIONS),
    };
  }
}
