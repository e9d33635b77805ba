import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../common/database/transaction-runner';
import { Scheduler } from '../common/scheduler/scheduler.service';
import { PaymentSession } from './session.entity';
import { SessionState } from './session-state';

const BATCH = 500;

/**
 * Marks CREATED sessions past their expiry as EXPIRED, every minute. Reads already apply the same rule
 * lazily (SessionService.applyExpiry); this makes the stored state, lists and reports agree with it.
 */
@Injectable()
export class SessionExpiryJob implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduler.register({ name: 'session-expiry', intervalSeconds: 60, run: (now) => this.expire(now) });
  }

  /**
   * In batches picked by a plain read, each UPDATE naming its rows: a single UPDATE scanning the table
   * would lock every row it reads on MariaDB. The UPDATE repeats the rule, so a session cancelled or
   * updated in between is left alone. Returns how many sessions expired.
   */
  async expire(now: Date): Promise<number> {
    let expired = 0;
    for (;;) {
      const rows = await this.dataSource
        .getRepository(PaymentSession)
        .createQueryBuilder('session')
        .select('session.id', 'id')
        .where('session.state = :created AND session.expires_at <= :now', { created: SessionState.Created, now })
        .limit(BATCH)
        .getRawMany<{ id: string }>();
      if (rows.length === 0) return expired;
      const result = await this.transactions.run((manager) =>
        manager
          .createQueryBuilder()
          .update(PaymentSession)
          .set({ state: SessionState.Expired })
          .where('id IN (:...ids) AND state = :created AND expires_at <= :now', {
            ids: rows.map((row) => row.id),
            created: SessionState.Created,
            now,
          })
          .execute(),
      );
      expired += result.affected ?? 0;
      // A short batch was the last; an empty update means the rows changed under us: next run.
      if (rows.length < BATCH || !result.affected) return expired;
    }
  }
}
