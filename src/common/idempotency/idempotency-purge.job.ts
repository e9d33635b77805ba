import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import { Scheduler } from '../scheduler/scheduler.service';
import { IdempotencyRecord } from './idempotency-record.entity';

const BATCH = 500;

/**
 * Deletes idempotency records older than IDEMPOTENCY_TTL_SECONDS, every 10 minutes. A claim already
 * ignores a stale record of its own key; this keeps the table from growing without end.
 */
@Injectable()
export class IdempotencyPurgeJob implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduler.register({ name: 'idempotency-purge', intervalSeconds: 600, run: (now) => this.purge(now) });
  }

  /** In batches by primary key, for the same reason as SessionExpiryJob. Returns how many were deleted. */
  async purge(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.idempotencyTtlSeconds * 1000);
    let deleted = 0;
    for (;;) {
      const stale = await this.dataSource.getRepository(IdempotencyRecord).find({
        select: { merchantId: true, key: true },
        where: { createdAt: LessThan(cutoff) },
        take: BATCH,
      });
      if (stale.length === 0) return deleted;
      const result = await this.transactions.run((manager) =>
        manager
          .createQueryBuilder()
          .delete()
          .from(IdempotencyRecord)
          .whereInIds(stale.map(({ merchantId, key }) => ({ merchantId, key })))
          .andWhere('created_at < :cutoff', { cutoff })
          .execute(),
      );
      deleted += result.affected ?? 0;
      if (stale.length < BATCH || !result.affected) return deleted;
    }
  }
}
