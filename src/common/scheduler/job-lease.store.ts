import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { violatedUniqueIndex } from '../database/db-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { JobLease } from './job-lease.entity';

/** The job_lease statements. Each write is one conditional statement, so instances never need to talk. */
@Injectable()
export class JobLeaseStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Creates the job's row, due at once; every instance does this at start, so a duplicate is expected. */
  async ensure(name: string, now: Date): Promise<void> {
    try {
      await this.transactions.run((manager) =>
        manager.getRepository(JobLease).insert({ name, holder: null, leaseUntil: null, nextRunAt: now, lastRunAt: null, lastError: null }),
      );
    } catch (error) {
      if (!violatedUniqueIndex(error, { PRIMARY: 'job_lease.name' })) throw error;
    }
  }

  /** The names among `names` that look due; only a claim decides who runs them. */
  async due(names: string[], now: Date): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.dataSource.getRepository(JobLease).findBy({ name: In(names) });
    return rows.filter((row) => row.nextRunAt <= now && (row.leaseUntil === null || row.leaseUntil < now)).map((row) => row.name);
  }

  /**
   * Takes this period's run: true for exactly one caller, because the check and the write are one
   * statement. Moving next_run_at makes the period's later claims fail even after the lease is released.
   */
  async claim(name: string, holder: string, now: Date, leaseUntil: Date, nextRunAt: Date): Promise<boolean> {
    const result = await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(JobLease)
        .set({ holder, leaseUntil, nextRunAt })
        .where('name = :name AND next_run_at <= :now AND (lease_until IS NULL OR lease_until < :now)', { name, now })
        .execute(),
    );
    return result.affected === 1;
  }

  /** Ends a run. False if the lease was lost meanwhile (it expired and another instance took the job). */
  async release(name: string, holder: string, leaseUntil: Date, ranAt: Date, error: string | null): Promise<boolean> {
    const result = await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(JobLease)
        .set({ leaseUntil: null, lastRunAt: ranAt, lastError: error })
        .where('name = :name AND holder = :holder AND lease_until = :leaseUntil', { name, holder, leaseUntil })
        .execute(),
    );
    return result.affected === 1;
  }
}
