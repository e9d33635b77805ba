import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { TransactionRunner } from './transaction-runner';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      // A database that is briefly unreachable at start is retried; a failing migration fails fast.
      useFactory: async (config: AppConfig) => ({ ...(await dataSourceOptions(config.database)), retryAttempts: 3, retryDelay: 1000 }),
    }),
  ],
  providers: [TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
