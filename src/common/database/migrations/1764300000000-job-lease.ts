import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { textColumn } from './column-helpers';

/** Leases of the scheduled jobs, so that each period runs on exactly one instance. */
export class JobLease1764300000000 implements MigrationInterface {
  name = 'JobLease1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'job_lease',
        columns: [
          { ...textColumn('name', 100), isPrimary: true },
          textColumn('holder', 100, true),
          { name: 'lease_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'next_run_at', type: 'datetime', precision: 3 },
          { name: 'last_run_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_error', type: 'text', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('job_lease');
  }
}
