import { Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { OrderState } from '../orders/order-state';
import { SessionState } from '../session/session-state';
import { MetricsRegistry } from './metrics.registry';

/** The parts of a mysql2 Pool read here: internals, so every one is optional. */
interface Mysql2PoolInternals {
  _allConnections?: { length?: number };
  _freeConnections?: { length?: number };
  _connectionQueue?: { length?: number };
}

/** Gauges that are read from the database when Prometheus scrapes (nothing runs between scrapes). */
@Injectable()
export class MetricsService {
  private readonly logger = new Logger('Metrics');

  constructor(
    readonly metrics: MetricsRegistry,
    private readonly dataSource: DataSource,
  ) {
    const service = this;
    this.stateGauge('payment_sessions', 'Payment sessions in the database, by state (one GROUP BY query per scrape)', 'payment_session', Object.values(SessionState));
    this.stateGauge('payment_orders', 'Orders in the database, by state (one GROUP BY query per scrape)', 'payment_order', Object.values(OrderState));
    new Gauge({
      name: 'notification_backlog',
      help: 'Notifications not delivered yet (state Pending: waiting for their first attempt, retrying, or in flight)',
      registers: [metrics.registry],
      async collect() {
        const pending = await service.count('notification_backlog', "SELECT COUNT(*) AS count FROM notification_event WHERE state = 'Pending'");
        if (pending !== null) this.set(pending);
      },
    });
    // SQLite has no pool (one shared connection): the gauge is not registered there at all.
    if (dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb') {
      new Gauge({
        name: 'db_pool_connections',
        help: 'Database pool connections: used (checked out), free (idle), pending (requests waiting for one)',
        labelNames: ['state'] as const,
        registers: [metrics.registry],
        collect() {
          this.reset();
          const pool = service.mysqlPool();
          if (!pool) return;
          const all = pool._allConnections?.length;
          const free = pool._freeConnections?.length;
          const pending = pool._connectionQueue?.length;
          if (typeof all === 'number' && typeof free === 'number') {
            this.set({ state: 'used' }, Math.max(0, all - free));
            this.set({ state: 'free' }, free);
          }
          if (typeof pending === 'number') this.set({ state: 'pending' }, pending);
        },
      });
    }
  }

  get contentType(): string {
    return this.metrics.registry.contentType;
  }

  render(): Promise<string> {
    return this.metrics.registry.metrics();
  }

  /**
   * A gauge of rows by state, read when Prometheus scrapes. Every known state is reported (0 when there
   * is none, so a series does not vanish), and any other state found in the table (a newer instance's).
   */
  private stateGauge(name: string, help: string, table: string, states: string[]): void {
    const service = this;
    new Gauge({
      name,
      help,
      labelNames: ['state'] as const,
      registers: [this.metrics.registry],
      async collect() {
        this.reset();
        const counts = await service.countByState(name, table);
        if (!counts) return;
        for (const state of states) this.set({ state }, 0);
        for (const [state, count] of counts) this.set({ state }, count);
      },
    });
  }

  /** null when the database cannot be read: the gauge is then left out instead of failing the scrape. */
  private async countByState(name: string, table: string): Promise<Map<string, number> | null> {
    try {
      const rows: { state: string; count: number | string }[] = await this.dataSource.query(`SELECT state, COUNT(*) AS count FROM ${table} GROUP BY state`);
      return new Map(rows.map((row) => [row.state, Number(row.count)]));
    } catch (error) {
      this.logger.warn(`${name} not collected: ${(error as Error).message}`);
      return null;
    }
  }

  /** One COUNT(*) query's answer, or null when the database cannot be read (the gauge is left out). */
  private async count(name: string, sql: string): Promise<number | null> {
    try {
      const [row]: { count: number | string }[] = await this.dataSource.query(sql);
      return Number(row.count);
    } catch (error) {
      this.logger.warn(`${name} not collected: ${(error as Error).message}`);
      return null;
    }
  }

  private mysqlPool(): Mysql2PoolInternals | null {
    const pool = (this.dataSource.driver as { pool?: unknown }).pool;
    return pool && typeof pool === 'object' ? (pool as Mysql2PoolInternals) : null;
  }
}
