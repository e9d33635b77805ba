import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Node's arguments that start the service from the sources: the run's transpiled copy when Jest made
 * one (test/setup/prebuild.js), else ts-node in transpile-only mode. Run with cwd = the project root.
 */
export function serviceNodeArgs(): string[] {
  const prebuilt = process.env.PAYMENTS_PREBUILT_DIR;
  if (prebuilt && existsSync(join(prebuilt, 'main.js'))) return [join(prebuilt, 'main.js')];
  return ['-r', 'ts-node/register/transpile-only', 'src/main.ts'];
}
