// Runs before each e2e file: quiet logs unless asked for.
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
