import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { timestampColumn } from './column-helpers';

/** Stored tax quotes, and the quote a session may refer to. */
export class TaxQuotes1763900000000 implements MigrationInterface {
  name = 'TaxQuotes1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tax_quote',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '36' },
          { name: 'reference', type: 'varchar', length: '255', isNullable: true },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'amount', type: 'bigint' },
          { name: 'tax_amount', type: 'bigint' },
          { name: 'body', type: 'text' },
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_tax_quote_merchant_created', columnNames: ['merchant_id', 'created_at'] })],
      }),
    );
    await queryRunner.addColumn(
      'payment_session',
      new TableColumn({ name: 'tax_quote_id', type: 'varchar', length: '36', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('payment_session', 'tax_quote_id');
    await queryRunner.dropTable('tax_quote');
  }
}
