import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { timestampColumn } from './column-helpers';

/** FX: imported reference rates, guaranteed rate offers, and each merchant's rate mode. */
export class Rates1764000000000 implements MigrationInterface {
  name = 'Rates1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'reference_rate',
        columns: [
          { name: 'currency', type: 'varchar', length: '3', isPrimary: true },
          { name: 'base', type: 'varchar', length: '3' },
          { name: 'rate', type: 'varchar', length: '40' },
          { name: 'as_of', type: 'varchar', length: '10' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'rate_offer',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'remittance_currency', type: 'varchar', length: '3' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'rate', type: 'varchar', length: '40' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_rate_offer_remittance_expiry', columnNames: ['remittance_currency', 'expires_at'] })],
      }),
    );
    await queryRunner.addColumn(
      'merchant',
      new TableColumn({ name: 'rate_mode', type: 'varchar', length: '20', default: "'guaranteed'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('merchant', 'rate_mode');
    await queryRunner.dropTable('rate_offer');
    await queryRunner.dropTable('reference_rate');
  }
}
