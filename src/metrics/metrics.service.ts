import { Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { SessionState } from '../session/session-state';
import { MetricsRegistry } from './metrics.registry';

/** The parts of a mysql2 Pool read here: internals, so every one is optional. */
interface Mysql2PoolInternals {
  _allConnections?: { length?: number };
  _freeConnections?: { length?: number };
  _connectionQueue?: { length?: number };
}

/**
 * Gauges that are read from the database when Prometheus scrapes (nothing runs between scrapes).
 * Orders and the notification backlog do not exist yet: their gauges come with those features.
 */
@Injectable()
export class MetricsService {
  private readonly logger = new Logger('Metrics');

  constructor(
    readonly metrics: MetricsRegistry,
    private readonly dataSource: DataSource,
  ) {
    const service = this;
    new Gauge({
      name: 'payment_sessions',
      help: 'Payment sessions in the database, by state (one GROUP BY query per scrape)',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      async collect() {
        this.reset();
        const counts = await service.sessionsByState();
        if (!counts) return;
        // Every known state, 0 when there is none (so that a series does not vanish), and any other
        // state found in the table (written by a newer instance) too.
        for (const state of Object.values(SessionState)) this.set({ state }, 0);
        for (const [state, count] of counts) this.set({ state }, count);
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

  /** null when the database cannot be read: the gauge is then left out instead of failing the scrape. */
  private async sessionsByState(): Promise<Map<string, number> | null> {
    try {
      const rows: { state: string; count: number | string }[] = await this.dataSource.query(
        'SELECT state, COUNT(*) AS count FROM payment_session GROUP BY state',
      );
      return new Map(rows.map((row) => [row.state, Number(row.count)]));
    } catch (error) {
      this.logger.warn(`payment_sessions not collected: ${(error as Error).message}`);
      return null;
    }
  }

  private mysqlPool(): Mysql2PoolInternals | null {
    const pool = (this.dataSource.driver as { pool?: unknown }).pool;
    return pool && typeof pool === 'object' ? (pool as Mysql2PoolInternals) : null;
  }
}
