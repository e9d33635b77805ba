import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { AppConfig } from './common/config/app-config';
import { ConfigError } from './common/config/env';
import { GracefulShutdown } from './common/http/graceful-shutdown';

async function bootstrap(): Promise<void> {
  const config = AppConfig.fromEnvironment();
  const shutdown = new GracefulShutdown();
  const app = await createApp(config, { beforeRoutes: [shutdown.track] });
  shutdown.listen(app);
  await (config.host ? app.listen(config.port, config.host) : app.listen(config.port));
  new Logger('Main').log(
    `Listening on port ${config.port} (${config.environment}, ${config.database.type}); API at ${config.publicUrl}/${config.currentApiVersion}, docs at ${config.publicUrl}/docs`,
  );
}

bootstrap().catch((error: unknown) => {
  // A configuration problem is the operator's to fix: say what, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
