import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { textColumn, timestampColumn, uuidColumn } from './column-helpers';

/** Replay protection for signed Checkout requests, and signing secrets bound to one environment. */
export class SignedRequestReplay1764200000000 implements MigrationInterface {
  name = 'SignedRequestReplay1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'signed_request_seen',
        columns: [
          { ...uuidColumn('merchant_id'), isPrimary: true },
          { ...textColumn('request_hash', 64), isPrimary: true },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_signed_request_seen_expires', columnNames: ['expires_at'] })],
      }),
    );
    // Every existing secret is a sandbox one (no production deployment exists yet): the default backfills
    // them, then goes, so that a new secret must always name its environment.
    const environment = textColumn('environment', 20);
    await queryRunner.addColumn('merchant_signing_secret', new TableColumn({ ...environment, default: "'sandbox'" }));
    await queryRunner.changeColumn('merchant_signing_secret', 'environment', new TableColumn(environment));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('merchant_signing_secret', 'environment');
    await queryRunner.dropTable('signed_request_seen');
  }
}
