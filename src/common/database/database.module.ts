import { Global, Module } from '@nestjs/common';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import type { Logger as PinoLogger } from 'pino';
import { AppConfig } from '../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { dataSourceOptions } from './data-source-options';
import { initializeMigrated, MigratedDataSourceOptions, MigrationLockTimeoutError } from './run-migrations';
import { TransactionRunner } from './transaction-runner';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      // The root logger is absent from the command line, which logs nothing.
      inject: [AppConfig, { token: ROOT_LOGGER, optional: true }],
      // A database that is briefly unreachable at start is retried; a failing migration fails fast, and
      // having waited the whole lock timeout for another instance's migrations is not worth a retry.
      useFactory: async (config: AppConfig, log?: PinoLogger): Promise<TypeOrmModuleOptions & MigratedDataSourceOptions> => ({
        ...(await dataSourceOptions(config.database)),
        retryAttempts: 3,
        retryDelay: 1000,
        toRetry: (error: unknown) => !(error instanceof MigrationLockTimeoutError),
        // Straight to pino: Nest's Logger holds its lines until the app is created, i.e. until the wait is over.
        migrationLock: { onWait: (message) => log?.info({ context: 'Migrations' }, message) },
      }),
      // Migrations run here, before anything can use the data source, once however many instances start.
      dataSourceFactory: async (options) => initializeMigrated(options as MigratedDataSourceOptions),
    }),
  ],
  providers: [TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
