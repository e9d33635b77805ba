import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { Scheduler } from '../common/scheduler/scheduler.service';
import { RemittanceService } from './remittance.service';

/**
 * The scheduled remittance run (every REMITTANCE_INTERVAL_SECONDS, on one instance per period), settling
 * everything processed or refunded up to the run's start. A run that overlaps another (a lease taken
 * over, `cli remittance run`) settles nothing twice: see RemittanceService.
 */
@Injectable()
export class RemittanceJobs implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly remittances: RemittanceService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduler.register({
      name: 'remittance',
      intervalSeconds: this.config.remittance.intervalSeconds,
      leaseSeconds: 900,
      run: async (now) => (await this.remittances.run({ to: now })).length,
    });
  }
}
