// Unit specs live beside the code; e2e specs in test/ run once per database.
// The MariaDB project is added only when TEST_MYSQL_URL is set (CI sets it).
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }] };
const base = { moduleFileExtensions: ['js', 'json', 'ts'], testEnvironment: 'node', transform };

const e2e = (name, kind, ignore = []) => ({
  ...base,
  displayName: name,
  rootDir: 'test',
  testRegex: '.*\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', ...ignore],
  setupFiles: ['<rootDir>/setup/env.ts'],
  globals: { TEST_DB_KIND: kind },
});

const projects = [
  { ...base, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
  e2e('e2e-sqlite', 'sqlite'),
];
// The README tour is the new user's path: `npm start` on the default SQLite database, so it runs on SQLite only.
if (process.env.TEST_MYSQL_URL) projects.push(e2e('e2e-mysql', 'mysql', ['readme-tour\\.e2e-spec\\.ts$']));

// Two workers: most e2e time is spent waiting on MariaDB, child processes and sockets, not on this CPU.
// src/ is transpiled once for the child processes the e2e tests start (test/setup/prebuild.js).
module.exports = {
  projects,
  testTimeout: 30000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/setup/prebuild.js',
  globalTeardown: '<rootDir>/test/setup/prebuild-teardown.js',
};
