import { Module } from '@nestjs/common';
import { OrderJobs } from './order-jobs';
import { OrdersModule } from './orders.module';

/** Registers the orders' scheduled jobs (apart from OrdersModule, so a command line using orders registers none). */
@Module({ imports: [OrdersModule], providers: [OrderJobs] })
export class OrderJobsModule {}
