import { INestApplication } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../src/common/database/transaction-runner';
import { TestDatabase } from './test-database';

const queues = new WeakMap<TestDatabase, { tail: Promise<unknown> }>();
const patched = new WeakSet<TransactionRunner>();

/**
 * Several instances on one SQLite file inside this one process: each has its own connection, and a write
 * transaction paused on an await makes another connection's write wait for the lock synchronously,
 * freezing the event loop until busy_timeout (5 s). Separate processes would simply wait for each other;
 * here the instances' transactions take turns instead, which is what the lock would make of them anyway.
 */
export function takeTurns(database: TestDatabase, ...apps: INestApplication[]): void {
  let queue = queues.get(database);
  if (!queue) queues.set(database, (queue = { tail: Promise.resolve() }));
  const turns = queue;
  for (const runner of apps.map((app) => app.get(TransactionRunner))) {
    if (patched.has(runner)) continue;
    patched.add(runner);
    const run = runner.run.bind(runner);
    runner.run = <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      const result = turns.tail.then(() => run(work));
      turns.tail = result.catch(() => undefined);
      return result;
    };
  }
}
