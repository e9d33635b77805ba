import { Module } from '@nestjs/common';
import { RemittanceJobs } from './remittance-jobs';
import { RemittanceModule } from './remittance.module';

/** Registers the scheduled remittance run (apart from RemittanceModule, so `cli remittance run` registers no job). */
@Module({ imports: [RemittanceModule], providers: [RemittanceJobs] })
export class RemittanceJobsModule {}
