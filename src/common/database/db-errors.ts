import { QueryFailedError } from 'typeorm';

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
}

function driverError(error: unknown): DriverError | null {
  if (error instanceof QueryFailedError) return error.driverError as DriverError;
  return null;
}

/** The name of the unique index a write violated, or null if the error is something else. */
export function violatedUniqueIndex(error: unknown, indexes: Record<string, string>): string | null {
  const driver = driverError(error);
  if (!driver) return null;
  const isUnique = driver.code === 'ER_DUP_ENTRY' || driver.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    driver.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!isUnique) return null;
  const message = driver.message ?? '';
  // MySQL names the index ("for key 'payment_session.UQ_x'"); SQLite lists the columns ("table.col1, table.col2").
  for (const [name, sqliteColumns] of Object.entries(indexes)) {
    if (message.includes(name) || message.includes(sqliteColumns)) return name;
  }
  return 'UNKNOWN';
}

/** Errors after which the whole unit of work may simply run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = driverError(error)?.code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
}
