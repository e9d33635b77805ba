import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isRetryableTransactionError } from './db-errors';

const MAX_ATTEMPTS = 4;

/**
 * Runs a unit of work in one transaction and hands it the EntityManager to use for every query.
 * MySQL: retried whole on deadlock. SQLite: TypeORM shares one connection, so units are queued one
 * after another (a second BEGIN would otherwise silently nest as a savepoint of the first).
 */
@Injectable()
export class TransactionRunner {
  private sqliteQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.isSqlite) return this.runWithRetry(work);
    const result = this.sqliteQueue.then(() => this.dataSource.transaction(work));
    this.sqliteQueue = result.catch(() => undefined);
    return result;
  }

  /**
   * A single write that needs no transaction of its own. MySQL: straight on the pool (no BEGIN/COMMIT
   * round trips). SQLite: still queued, or it would run inside whichever transaction holds the one
   * shared connection at that moment, and vanish if that one rolled back.
   */
  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.isSqlite ? this.run(work) : work(this.dataSource.manager);
  }

  private async runWithRetry<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
      }
    }
  }
}
