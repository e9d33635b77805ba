import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { textColumn as text, timestampColumn as timestamp, uuidColumn as uuid } from './column-helpers';

/** Binary and NO PAD: trailing spaces count too. */
export const exactCollation = (type: 'mysql' | 'mariadb') => (type === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin');

/** Merchants, users, billing profiles, sessions and idempotency records. Written with the schema API so it runs on SQLite and MySQL. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.options.type;
    if (type === 'mysql' || type === 'mariadb') {
      // References and idempotency keys must compare exactly (as on SQLite): "Order-1" is not "order-1 ".
      // MySQL/MariaDB default to case- and accent-insensitive collations, so the tables get a binary one.
      await queryRunner.query(`ALTER DATABASE CHARACTER SET utf8mb4 COLLATE ${exactCollation(type)}`);
    }
    await queryRunner.createTable(
      new Table({
        name: 'merchant',
        columns: [
          { ...uuid('id'), isPrimary: true },
          text('name', 200),
          text('remittance_currency', 3),
          text('notify_url', 2000, true),
          timestamp(queryRunner, 'created_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'merchant_signing_secret',
        columns: [
          { ...uuid('id'), isPrimary: true },
          uuid('merchant_id'),
          text('secret_sealed', 255),
          { name: 'retires_at', type: 'datetime', precision: 3, isNullable: true },
          timestamp(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_signing_secret_merchant', columnNames: ['merchant_id', 'created_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'app_user',
        columns: [
          { ...uuid('id'), isPrimary: true },
          text('username', 100),
          text('password_hash', 255),
          uuid('merchant_id', true),
          text('role', 20),
          timestamp(queryRunner, 'created_at'),
        ],
        indices: [new TableIndex({ name: 'UQ_app_user_username', columnNames: ['username'], isUnique: true })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'billing_profile',
        columns: [
          { ...uuid('id'), isPrimary: true },
          uuid('merchant_id'),
          text('reference', 255, true),
          text('name', 255),
          text('email', 320),
          text('phone', 50, true),
          text('birth_date', 10, true),
          text('national_identifier', 50, true),
          text('company', 255, true),
          text('street', 255),
          text('city', 255),
          text('region', 10, true),
          text('country', 2),
          text('postcode', 20, true),
          timestamp(queryRunner, 'created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_billing_profile_reference', columnNames: ['merchant_id', 'reference'], isUnique: true }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'payment_session',
        columns: [
          { ...uuid('id'), isPrimary: true },
          uuid('merchant_id'),
          text('merchant_reference', 255),
          text('state', 20),
          text('currency', 3),
          { name: 'auto_capture', type: 'boolean' },
          text('complete_url', 2000),
          text('cancel_url', 2000),
          uuid('billing_profile_id'),
          text('billing_profile_reference', 255, true),
          { name: 'via_agent', type: 'boolean' },
          { name: 'allow_contract', type: 'boolean', isNullable: true },
          { name: 'open_contract', type: 'boolean', isNullable: true },
          { name: 'items', type: 'text' },
          { name: 'discounts', type: 'text', isNullable: true },
          { name: 'shipping', type: 'text', isNullable: true },
          { name: 'tax_amount', type: 'bigint', isNullable: true },
          { name: 'total_amount', type: 'bigint' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'update_lock_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'version', type: 'integer' },
          timestamp(queryRunner, 'created_at'),
          { ...timestamp(queryRunner, 'updated_at'), onUpdate: queryRunner.connection.options.type === 'better-sqlite3' ? undefined : 'CURRENT_TIMESTAMP(6)' },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_session_merchant_reference',
            columnNames: ['merchant_id', 'merchant_reference'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_session_merchant_created', columnNames: ['merchant_id', 'created_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_record',
        columns: [
          { ...uuid('merchant_id'), isPrimary: true },
          { ...text('idempotency_key', 255), isPrimary: true },
          text('request_hash', 64),
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          timestamp(queryRunner, 'created_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['idempotency_record', 'payment_session', 'billing_profile', 'app_user', 'merchant_signing_secret', 'merchant']) {
      await queryRunner.dropTable(table);
    }
  }
}
