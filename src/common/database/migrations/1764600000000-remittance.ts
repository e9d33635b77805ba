import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { textColumn, timestampColumn, uuidColumn } from './column-helpers';

const datetime = (name: string) => ({ name, type: 'datetime', precision: 3 });
const bigint = (name: string) => ({ name, type: 'bigint' });

/**
 * Remittances, their lines and reports; `remittance_id` on orders and refunds, set once by the run that
 * claims them. The (state, remittance_id) indexes find what is still to settle without scanning the
 * orders that never will be (declined, cancelled) or that already were.
 */
export class Remittance1764600000000 implements MigrationInterface {
  name = 'Remittance1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of [
      ['payment_order', 'IDX_order_state_remittance'],
      ['order_refund', 'IDX_refund_state_remittance'],
    ]) {
      await queryRunner.addColumn(table, new TableColumn(uuidColumn('remittance_id', true)));
      await queryRunner.createIndex(table, new TableIndex({ name: index, columnNames: ['state', 'remittance_id'] }));
    }
    await queryRunner.createTable(
      new Table({
        name: 'remittance',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('merchant_id'),
          textColumn('currency', 3),
          datetime('period_from'),
          datetime('period_to'),
          bigint('gross_minor'),
          bigint('refunds_minor'),
          bigint('fees_minor'),
          bigint('remitted_minor'),
          { name: 'line_count', type: 'integer' },
          textColumn('state', 20),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_remittance_merchant_currency_to', columnNames: ['merchant_id', 'currency', 'period_to'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'remittance_line',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('remittance_id'),
          { name: 'position', type: 'integer' },
          textColumn('line_type', 10),
          uuidColumn('order_id'),
          uuidColumn('refund_id', true),
          textColumn('merchant_reference', 200),
          datetime('occurred_at'),
          bigint('consumer_minor'),
          textColumn('consumer_currency', 3),
          textColumn('rate', 40),
          uuidColumn('rate_offer_id', true),
          bigint('gross_minor'),
          bigint('fee_minor'),
          bigint('remitted_minor'),
        ],
        indices: [new TableIndex({ name: 'UQ_remittance_line_position', columnNames: ['remittance_id', 'position'], isUnique: true })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'report',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('remittance_id'),
          uuidColumn('merchant_id'),
          textColumn('currency', 3),
          datetime('period_from'),
          datetime('period_to'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_report_remittance', columnNames: ['remittance_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_report_merchant_created', columnNames: ['merchant_id', 'created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['report', 'remittance_line', 'remittance']) await queryRunner.dropTable(table);
    for (const [table, index] of [
      ['order_refund', 'IDX_refund_state_remittance'],
      ['payment_order', 'IDX_order_state_remittance'],
    ]) {
      await queryRunner.dropIndex(table, index);
      await queryRunner.dropColumn(table, 'remittance_id');
    }
  }
}
