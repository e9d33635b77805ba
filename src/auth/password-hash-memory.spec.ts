import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRYPT_COST } from './password-hasher';

/** The environment assignments in front of `node` in `npm start`. */
function startScriptEnvironment(): Record<string, string> {
  const start: string = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  return Object.fromEntries(
    words
      .slice(0, words.indexOf('node'))
      .map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, name, value]) => [name, value]),
  );
}

/** RSS growth in MB of a fresh node process after three rounds of 8 concurrent scrypt hashes at our cost. */
function rssGrowthAfterHashing(env: Record<string, string>): number {
  const script = `
    const { scrypt } = require('node:crypto');
    const cost = ${JSON.stringify({ ...SCRYPT_COST, maxmem: 256 * SCRYPT_COST.N * SCRYPT_COST.r })};
    const hash = () => new Promise((done, fail) => scrypt('password', 'salt', 32, cost, (e) => (e ? fail(e) : done())));
    (async () => {
      const before = process.memoryUsage().rss;
      for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 8 }, hash));
      process.stdout.write(String((process.memoryUsage().rss - before) / 1048576));
    })();`;
  const inherited = { ...process.env };
  delete inherited.MALLOC_MMAP_THRESHOLD_;
  return Number(execFileSync(process.execPath, ['-e', script], { env: { ...inherited, ...env }, encoding: 'utf8' }));
}

const glibc = Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

// glibc raises its mmap threshold to the first large block freed; each libuv pool thread then keeps its
// 16 MiB scrypt block in its own arena. npm start pins the threshold so those blocks are returned.
(glibc ? describe : describe.skip)('password hashing memory under npm start (glibc)', () => {
  it('without the start script environment, scrypt blocks stay in RSS (the effect the setting is for)', () => {
    expect(rssGrowthAfterHashing({})).toBeGreaterThan(40);
  });

  it('with the start script environment, RSS does not keep them', () => {
    const env = startScriptEnvironment();
    expect(env).toHaveProperty('MALLOC_MMAP_THRESHOLD_');
    expect(rssGrowthAfterHashing(env)).toBeLessThan(20);
  });
});
