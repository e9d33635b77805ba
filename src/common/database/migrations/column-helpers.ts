import { QueryRunner, TableColumnOptions } from 'typeorm';

/** Column shapes shared by the migrations, written once so that every table agrees with its entity. */
export const uuidColumn = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '36',
  isNullable: nullable,
});

export const textColumn = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});

/** Matches @CreateDateColumn/@UpdateDateColumn({ precision: 6 }) on both databases. */
export const timestampColumn = (queryRunner: QueryRunner, name: string): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 6,
  default: queryRunner.connection.options.type === 'better-sqlite3' ? "datetime('now')" : 'CURRENT_TIMESTAMP(6)',
});
