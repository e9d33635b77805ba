import { LogLevel } from '@nestjs/common';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const FROM_CONFIG: Record<string, number> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };

/** LOG_LEVEL (pino names) to Nest's logger levels; "silent" turns logging off. */
export function nestLogLevels(level: string): LogLevel[] | false {
  if (level === 'silent') return false;
  return ORDER.slice(0, (FROM_CONFIG[level] ?? 3) + 1);
}
