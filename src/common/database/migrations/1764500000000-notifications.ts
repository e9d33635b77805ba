import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { textColumn, uuidColumn } from './column-helpers';

const datetime = (name: string, nullable = false) => ({ name, type: 'datetime', precision: 3, isNullable: nullable });
const integer = (name: string, options: { default?: number; nullable?: boolean } = {}) => ({
  name,
  type: 'integer',
  isNullable: options.nullable ?? false,
  ...(options.default === undefined ? {} : { default: options.default }),
});

/**
 * The notifications outbox and its delivery attempts; on orders, the per-order event counter and the
 * Expiry for which the capture-deadline reminder was sent.
 */
export class Notifications1764500000000 implements MigrationInterface {
  name = 'Notifications1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('payment_order', new TableColumn(integer('notify_sequence', { default: 0 })));
    await queryRunner.addColumn('payment_order', new TableColumn(datetime('capture_reminder_for', true)));
    await queryRunner.createTable(
      new Table({
        name: 'notification_event',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('merchant_id'),
          textColumn('resource_type', 20),
          uuidColumn('resource_id'),
          integer('sequence'),
          textColumn('type', 50),
          { name: 'payload', type: 'text' },
          textColumn('target_url', 2000, true),
          textColumn('state', 20),
          integer('attempts', { default: 0 }),
          integer('retry_count', { default: 0 }),
          datetime('next_attempt_at'),
          datetime('locked_until', true),
          textColumn('locked_by', 100, true),
          integer('last_status', { nullable: true }),
          textColumn('last_error', 500, true),
          datetime('delivered_at', true),
          datetime('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_notification_resource_sequence', columnNames: ['resource_type', 'resource_id', 'sequence'], isUnique: true }),
          new TableIndex({ name: 'IDX_notification_due', columnNames: ['state', 'next_attempt_at'] }),
          new TableIndex({ name: 'IDX_notification_merchant_created', columnNames: ['merchant_id', 'created_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'notification_attempt',
        columns: [
          { ...uuidColumn('event_id'), isPrimary: true },
          { ...integer('attempt'), isPrimary: true },
          datetime('started_at'),
          integer('duration_ms'),
          integer('status_code', { nullable: true }),
          textColumn('error', 500, true),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notification_attempt');
    await queryRunner.dropTable('notification_event');
    await queryRunner.dropColumn('payment_order', 'capture_reminder_for');
    await queryRunner.dropColumn('payment_order', 'notify_sequence');
  }
}
