import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { textColumn, timestampColumn, uuidColumn } from './column-helpers';

const datetime = (name: string) => ({ name, type: 'datetime', precision: 3, isNullable: true });
const bigint = (name: string, withDefault = false) => ({ name, type: 'bigint', ...(withDefault ? { default: 0 } : {}) });
const flag = (name: string, defaultValue?: boolean) => ({
  name,
  type: 'boolean',
  ...(defaultValue === undefined ? {} : { default: defaultValue ? 1 : 0 }),
});

/** Orders, their events and refunds, contracts, and the simulated processor's vault and ledger. */
export class Orders1764400000000 implements MigrationInterface {
  name = 'Orders1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'payment_order',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('merchant_id'),
          textColumn('source', 10),
          textColumn('reference_id', 200),
          uuidColumn('session_id', true),
          textColumn('state', 20),
          { name: 'version', type: 'integer' },
          flag('under_review', false),
          textColumn('payment_method', 30),
          textColumn('currency', 3),
          bigint('total_minor'),
          bigint('refunded_minor', true),
          flag('capture_requested'),
          textColumn('remittance_currency', 3),
          uuidColumn('rate_offer_id', true),
          textColumn('rate', 40, true),
          uuidColumn('contract_id', true),
          uuidColumn('device_fingerprint', true),
          textColumn('card_token', 40, true),
          textColumn('card_brand', 20, true),
          textColumn('card_last4', 4, true),
          { name: 'details', type: 'text' },
          { name: 'action', type: 'text', isNullable: true },
          { name: 'bank_details', type: 'text', isNullable: true },
          textColumn('request_hash', 64),
          { name: 'attempts', type: 'integer', default: 1 },
          datetime('expires_at'),
          datetime('authorized_at'),
          datetime('processed_at'),
          datetime('cancelled_at'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_order_merchant_reference', columnNames: ['merchant_id', 'source', 'reference_id'], isUnique: true }),
          new TableIndex({ name: 'UQ_order_session', columnNames: ['session_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_order_state_expiry', columnNames: ['state', 'expires_at'] }),
          new TableIndex({ name: 'IDX_order_merchant_created', columnNames: ['merchant_id', 'created_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'order_event',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('order_id'),
          uuidColumn('merchant_id'),
          { name: 'sequence', type: 'integer' },
          textColumn('from_state', 20, true),
          textColumn('to_state', 20),
          textColumn('reason', 200, true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'UQ_order_event_sequence', columnNames: ['order_id', 'sequence'], isUnique: true })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'order_refund',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('order_id'),
          uuidColumn('merchant_id'),
          textColumn('reference_id', 200),
          bigint('amount_minor'),
          textColumn('currency', 3),
          textColumn('state', 20),
          textColumn('failure_reason', 200, true),
          timestampColumn(queryRunner, 'created_at'),
          datetime('completed_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_refund_order_reference', columnNames: ['order_id', 'reference_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_refund_state_created', columnNames: ['state', 'created_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'payment_contract',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          uuidColumn('merchant_id'),
          textColumn('payment_method', 30),
          textColumn('card_token', 40),
          textColumn('card_brand', 20),
          textColumn('card_last4', 4),
          textColumn('state', 10),
          uuidColumn('order_id'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_contract_merchant', columnNames: ['merchant_id'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'card_token',
        columns: [
          { ...textColumn('token', 40), isPrimary: true },
          uuidColumn('merchant_id'),
          textColumn('brand', 20),
          textColumn('last4', 4),
          textColumn('sandbox_behaviour', 30),
          timestampColumn(queryRunner, 'created_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sandbox_ledger',
        columns: [
          { ...uuidColumn('id'), isPrimary: true },
          textColumn('operation', 20),
          textColumn('idempotency_key', 100),
          uuidColumn('order_id'),
          bigint('amount_minor'),
          textColumn('currency', 3),
          textColumn('outcome', 30),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'UQ_sandbox_ledger_operation_key', columnNames: ['operation', 'idempotency_key'], isUnique: true })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['sandbox_ledger', 'card_token', 'payment_contract', 'order_refund', 'order_event', 'payment_order']) {
      await queryRunner.dropTable(table);
    }
  }
}
