import { toBillingProfileModel, toSessionModel } from '../sessions/session.mapper';
import { SessionModel } from '../sessions/session.model';
import { toOrderModel, toRefundModel } from '../orders/order.mapper';
import { OrderModel, RefundModel } from '../orders/order.model';
import { toRemittanceLineModel } from '../remittances/remittance.mapper';
import { RemittanceModel } from '../remittances/remittance.model';
import { RequestLoaders } from './request-loaders';
import { Selection } from './selection';

/**
 * Fills the related objects a query asks for (session → billing profile and order, order → refunds and
 * session, refund → order, remittance → report id and lines) on a whole list at once, level by level, through the request's DataLoaders:
 * one batched query per relation and level, whatever the page size, and no per-item resolver calls.
 * Root fields call it with their result and the query's selection below it.
 */
export class Relations {
  constructor(private readonly loaders: RequestLoaders) {}

  /** Sessions whose page query already joined a relation come with it filled in; only the others are loaded. */
  async ofSessions(sessions: SessionModel[], selection: Selection | undefined): Promise<void> {
    if (!selection || sessions.length === 0) return;
    const work: Promise<void>[] = [];
    const withoutProfile = sessions.filter((s) => s.billingProfile === undefined);
    if (selection.has('billingProfile') && withoutProfile.length > 0) {
      work.push(
        loadAll(this.loaders.billingProfile, withoutProfile.map((s) => s.billingProfileId)).then((profiles) =>
          withoutProfile.forEach((session, i) => {
            const profile = profiles[i];
            if (!profile) throw new Error(`Session ${session.id} refers to a missing billing profile`);
            session.billingProfile = toBillingProfileModel(profile);
          }),
        ),
      );
    }
    const orderSelection = selection.get('order');
    if (orderSelection) {
      const withoutOrder = sessions.filter((s) => s.order === undefined);
      work.push(
        loadAll(this.loaders.orderOfSession, withoutOrder.map((s) => s.id)).then((orders) => {
          withoutOrder.forEach((session, i) => (session.order = orders[i] && toOrderModel(orders[i])));
          return this.ofOrders(present(sessions.map((s) => s.order)), orderSelection);
        }),
      );
    }
    await Promise.all(work);
  }

  async ofOrders(orders: OrderModel[], selection: Selection | undefined): Promise<void> {
    if (!selection || orders.length === 0) return;
    const work: Promise<void>[] = [];
    const refundSelection = selection.get('refunds');
    if (refundSelection) {
      // The sessions page brings its orders' refunds in its own query; only the others are loaded.
      const withoutRefunds = orders.filter((o) => o.refunds === undefined);
      work.push(
        loadAll(this.loaders.refundsOfOrder, withoutRefunds.map((o) => o.id)).then((refunds) => {
          withoutRefunds.forEach((order, i) => (order.refunds = refunds[i].map(toRefundModel)));
          return this.ofRefunds(orders.flatMap((o) => o.refunds!), refundSelection);
        }),
      );
    }
    const sessionSelection = selection.get('session');
    if (sessionSelection) {
      const now = new Date();
      const withSession = orders.filter((o) => o.sessionId !== null);
      orders.forEach((order) => (order.session = null));
      work.push(
        loadAll(this.loaders.session, withSession.map((o) => o.sessionId!)).then((sessions) => {
          withSession.forEach((order, i) => (order.session = sessions[i] && toSessionModel(sessions[i], now)));
          return this.ofSessions(present(withSession.map((o) => o.session)), sessionSelection);
        }),
      );
    }
    await Promise.all(work);
  }

  async ofRefunds(refunds: RefundModel[], selection: Selection | undefined): Promise<void> {
    const orderSelection = selection?.get('order');
    if (!orderSelection || refunds.length === 0) return;
    const orders = await loadAll(this.loaders.order, refunds.map((r) => r.orderId));
    refunds.forEach((refund, i) => {
      if (!orders[i]) throw new Error(`Refund ${refund.id} refers to a missing order`);
      refund.order = toOrderModel(orders[i]);
    });
    await this.ofOrders(refunds.map((r) => r.order!), orderSelection);
  }

  async ofRemittances(remittances: RemittanceModel[], selection: Selection | undefined): Promise<void> {
    if (!selection || remittances.length === 0) return;
    const ids = remittances.map((r) => r.id);
    const work: Promise<void>[] = [];
    if (selection.has('reportId')) {
      work.push(
        loadAll(this.loaders.reportIdOfRemittance, ids).then((reportIds) =>
          remittances.forEach((remittance, i) => {
            // Written in the remittance's own transaction: a missing report is a broken invariant.
            if (!reportIds[i]) throw new Error(`Remittance ${remittance.id} has no report`);
            remittance.reportId = reportIds[i];
          }),
        ),
      );
    }
    if (selection.has('lines')) {
      work.push(
        loadAll(this.loaders.linesOfRemittance, ids).then((lines) =>
          remittances.forEach((remittance, i) => (remittance.lines = lines[i].map((line) => toRemittanceLineModel(line, remittance.currency)))),
        ),
      );
    }
    await Promise.all(work);
  }
}

/** One batch for all keys (DataLoader also removes duplicates and remembers what this request loaded). */
function loadAll<V>(loader: { load(key: string): Promise<V> }, keys: string[]): Promise<V[]> {
  return Promise.all(keys.map((key) => loader.load(key)));
}

function present<T>(values: (T | null | undefined)[]): T[] {
  return values.filter((value): value is T => value !== null && value !== undefined);
}
