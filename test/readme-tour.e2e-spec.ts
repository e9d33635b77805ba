import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, ServiceProcess } from './setup/service-process';

const ROOT = join(__dirname, '..');
/** The README sections whose bash blocks a new user runs against a fresh `npm start`, in order. */
const TOUR_SECTIONS = ['A tour with curl', 'GraphQL for dashboards'];

interface Block {
  line: number;
  text: string;
}

/** The bash blocks of the README's tour sections, with the line each starts on. */
function tourBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let block: Block | null = null;
  markdown.split('\n').forEach((text, index) => {
    if (block) {
      if (text === '```') {
        if (TOUR_SECTIONS.includes(section)) blocks.push(block);
        block = null;
      } else block.text += `${text}\n`;
    } else if (text.startsWith('## ')) section = text.slice(3).trim();
    else if (text === '```bash') block = { line: index + 2, text: '' };
  });
  return blocks;
}

/** What a block's comments say it prints, in order (one entry per output, continuation lines joined). */
function expectationsOf(block: Block): { line: number; text: string }[] {
  const expected: { line: number; text: string }[] = [];
  let last: { line: number; text: string } | null = null;
  block.text.split('\n').forEach((text, index) => {
    const comment = /^\s*#\s?(.*)$/.exec(text);
    if (!comment) {
      last = null;
      // A status after a command (`curl … -w '%{http_code}' …   # 204`).
      const status = /\s#\s+(\d{3})\s*$/.exec(text);
      if (status) expected.push({ line: block.line + index, text: status[1] });
      return;
    }
    // Notes in parentheses after the output, or on a line of their own, say something about it.
    const content = comment[1].trim().replace(/\s{3,}\(.*$/, '').replace(/^\(.*\)$/, '');
    if (!content) return;
    if (comment[1].startsWith(' ') && last) last.text += content;
    else if (/^[a-z]/.test(content)) last = null; // prose
    else expected.push((last = { line: block.line + index, text: content }));
  });
  return expected;
}

/** The pattern of an expectation: "…", "..." and "<placeholders>" stand for anything, spaces for any spacing. */
function patternOf(text: string): RegExp {
  const parts = text.split(/(…|\.\.\.|<[^>]+>|\s+)/);
  const source = parts
    .map((part, i) => (i % 2 === 0 ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : /^\s+$/.test(part) ? '\\s+' : '[\\s\\S]*?'))
    .join('');
  return new RegExp(source, 'g');
}

// The README promises that its tour "runs as is against a fresh `npm start`": this runs it so, in one
// bash session (variables and functions carry from block to block), and checks what it printed.
// Runs in the SQLite project only (jest.config.js): the sandbox's default database, as a new user's `npm start` has it.
describe('README tour', () => {
  let dir: string;
  let service: ServiceProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'readme-tour-'));
    env = {
      APP_ENV: 'sandbox',
      DATABASE_URL: `sqlite:${join(dir, 'payments.sqlite')}`,
      SECRETS_KEY_FILE: join(dir, 'secrets.key'),
      SCHEDULER_ENABLED: 'false',
    };
    service = await startServiceProcess({ ...env, SECRETS_KEY: undefined, LOG_LEVEL: 'warn' });
    await service.ready();
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every block runs and prints what the README says', () => {
    const blocks = tourBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const marker = (i: number) => `@@README block ${i}@@`;
    // One bash session, stderr with stdout (some examples print to stderr); the first failure stops it.
    const script = ['exec 2>&1', ...blocks.map((block, i) => `echo '${marker(i)}'\n${block.text.replaceAll('http://localhost:3000', service.url)}`)].join('\n');
    const run = spawnSync('bash', ['-eo', 'pipefail', '-c', script], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
    const outputs = run.stdout.split(/@@README block \d+@@\n/).slice(1);
    const failedBlock = blocks[outputs.length - 1];
    expect({ status: run.status, lastBlockRun: `README.md:${failedBlock?.line}`, output: outputs.at(-1) }).toMatchObject({ status: 0 });
    expect(outputs).toHaveLength(blocks.length);

    let checked = 0;
    blocks.forEach((block, i) => {
      let from = 0;
      for (const expectation of expectationsOf(block)) {
        const pattern = patternOf(expectation.text);
        pattern.lastIndex = from;
        const found = pattern.exec(outputs[i]);
        expect({ readme: `README.md:${expectation.line}`, expected: expectation.text, printed: found ? 'as expected' : outputs[i].slice(from) })
          .toEqual({ readme: `README.md:${expectation.line}`, expected: expectation.text, printed: 'as expected' });
        from = found!.index + found![0].length;
        checked++;
      }
    });
    expect(checked).toBeGreaterThanOrEqual(25);
    expect(run.stdout).not.toMatch(/INTERNAL_ERROR|InternalError/);
    // The service logged no error (pino level 50) for anything the tour did.
    expect(service.output()).not.toMatch(/"level":(50|60)/);
  }, 150_000);
});
