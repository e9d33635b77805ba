#!/usr/bin/env node
// Runs the command line from the TypeScript sources when ts-node is installed (always current),
// else from the build in dist/ (a production install without dev dependencies).
const path = require('node:path');
const fs = require('node:fs');
const root = path.join(__dirname, '..');

// The test suite transpiles src/ once per run and names the copy here (test/setup/prebuild.js).
const prebuilt = process.env.PAYMENTS_PREBUILT_DIR;
if (prebuilt && fs.existsSync(path.join(prebuilt, 'cli.js'))) {
  require(path.join(prebuilt, 'cli.js'));
  return;
}

let tsNode = null;
try {
  tsNode = require('ts-node');
} catch {
  // no dev dependencies: fall back to dist/
}
if (tsNode) {
  tsNode.register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
  require(path.join(root, 'src', 'cli.ts'));
} else if (fs.existsSync(path.join(root, 'dist', 'cli.js'))) {
  require(path.join(root, 'dist', 'cli.js'));
} else {
  process.stderr.write('error: run `npm run build` first (dist/cli.js is missing)\n');
  process.exit(1);
}
