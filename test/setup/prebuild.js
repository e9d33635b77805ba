// Jest global set-up and tear-down (plain JavaScript: Jest loads these before any transform is set up).
const { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..', '..');
const SOURCES = join(ROOT, 'src');
// Inside the project (under node_modules/, ignored by git) so that the copy resolves the project's packages.
const CACHE = join(ROOT, 'node_modules', '.cache');
const PREFIX = join(CACHE, 'payments-prebuilt-');

/**
 * Transpiles src/ once per test run (module by module, no type check: what ts-node's transpile-only
 * mode does for the command line) into a directory of its own named in PAYMENTS_PREBUILT_DIR, which
 * scripts/cli.js and test/setup/service-command.ts use. The e2e tests start the command line or the
 * service as child processes some eighty times; each would otherwise transpile every file again
 * (7–10 s of CPU each). Type errors are `npm run typecheck`'s job.
 */
function prebuild() {
  mkdirSync(CACHE, { recursive: true });
  const out = mkdtempSync(PREFIX);
  const { compilerOptions: fromFile } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
  const { options } = ts.convertCompilerOptionsFromJson(fromFile, ROOT);
  // The project's options, for one file at a time: no output paths, no build info; source maps inline.
  const compilerOptions = { ...options, outDir: undefined, incremental: undefined, sourceMap: false, inlineSourceMap: true };
  for (const file of filesUnder(SOURCES)) {
    if (file.endsWith('.spec.ts') || file.endsWith('.d.ts')) continue;
    const target = join(out, relative(SOURCES, file));
    mkdirSync(dirname(target), { recursive: true });
    if (file.endsWith('.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
      writeFileSync(target.replace(/\.ts$/, '.js'), outputText);
    } else {
      // Files the code reads beside itself: the payment page's assets, JSON data.
      copyFileSync(file, target);
    }
  }
  process.env.PAYMENTS_PREBUILT_DIR = out;
}

function removePrebuilt() {
  const out = process.env.PAYMENTS_PREBUILT_DIR;
  if (out && out.startsWith(PREFIX)) rmSync(out, { recursive: true, force: true });
}

function filesUnder(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

module.exports = prebuild;
module.exports.removePrebuilt = removePrebuilt;
