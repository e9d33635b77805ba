import { ClockModule } from './common/clock/clock.module';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { SchedulerModule } from './common/scheduler/scheduler.module';
import { JobOutcome } from './common/scheduler/scheduler.service';
import { OrderJobsModule } from './orders/order-jobs.module';
import { PaymentPageModule } from './payment-page/payment-page.module';
import { SessionModule } from './session/session.module';
import { RemittanceJobsModule } from './remittance/remittance-jobs.module';

/**
 * What `cli jobs run` boots beside the database: the Scheduler and every module that registers a job
 * with it. A module that adds a job adds itself here too, so that the command line runs it as well.
 */
export const JOB_MODULES = [ClockModule, SchedulerModule, SessionModule, IdempotencyModule, OrderJobsModule, PaymentPageModule, RemittanceJobsModule];

/** The command line's JSON for Scheduler.runDue(); a failed job makes the command fail. */
export function describeJobRuns(outcomes: JobOutcome[]): { Ran: { Job: string; Processed: number | null }[] } {
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  if (failed.length) throw new Error(failed.map((outcome) => `job ${outcome.name} failed: ${outcome.error}`).join('\n'));
  return { Ran: outcomes.map((outcome) => ({ Job: outcome.name, Processed: outcome.processed ?? null })) };
}
