import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyModule } from '../common/idempotency/idempotency.module';
import { TaxModule } from '../tax/tax.module';
import { SessionController } from './session.controller';
import { SessionExpiryJob } from './session-expiry.job';
import { SessionLookup } from './session-lookup';
import { SessionService } from './session.service';

@Module({
  imports: [AuthModule, IdempotencyModule, TaxModule],
  controllers: [SessionController],
  providers: [SessionService, SessionLookup, SessionExpiryJob],
  exports: [SessionService],
})
export class SessionModule {}
