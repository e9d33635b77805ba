import { Global, Module } from '@nestjs/common';
import { JobLeaseStore } from './job-lease.store';
import { Scheduler } from './scheduler.service';

/** One Scheduler per instance; feature modules register their jobs with it (see Scheduler). */
@Global()
@Module({ providers: [Scheduler, JobLeaseStore], exports: [Scheduler] })
export class SchedulerModule {}
