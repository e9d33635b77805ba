import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import { IdempotencyService } from './idempotency.service';

@Module({
  providers: [IdempotencyService, IdempotencyInterceptor, IdempotencyPurgeJob],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
