import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { timestampColumn } from './column-helpers';

/** Devices recorded by the fingerprint script. */
export class DeviceFingerprints1764100000000 implements MigrationInterface {
  name = 'DeviceFingerprints1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'device_fingerprint',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '36' },
          { name: 'device', type: 'text', isNullable: true },
          { name: 'recorded_at', type: 'datetime', precision: 3, isNullable: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_fingerprint_merchant_created', columnNames: ['merchant_id', 'created_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('device_fingerprint');
  }
}
