import { INestApplication, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { AppModule } from './app.module';
import { AppConfig } from './common/config/app-config';
import { formBodyParser, jsonBodyParser } from './common/http/json-body-parser';
import { nestLogLevels } from './common/http/log-levels';
import { setupOpenApi } from './common/http/openapi';
import { corsOptions, securityHeaders } from './common/http/security-headers';
import { httpsOnly, httpsOptions } from './common/http/transport-security';
import { HttpMetrics } from './metrics/http-metrics.middleware';

export interface CreateAppOptions {
  /** Middleware that must see every request first (main.ts counts in-flight requests for shutdown). */
  beforeRoutes?: RequestHandler[];
}

/** Builds the whole HTTP application; main.ts listens on it, e2e tests drive it with supertest. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    httpsOptions: httpsOptions(config),
    logger: nestLogLevels(config.logLevel),
    // Throw instead of process.exit, so that main.ts reports the cause and tests see it.
    abortOnError: false,
  });
  app.disable('x-powered-by');
  for (const handler of options.beforeRoutes ?? []) app.use(handler);
  // Next, so that every response is counted (refusals by the middleware below and errors included).
  app.use(app.get(HttpMetrics).track);
  // Behind a TLS-terminating proxy, trust its X-Forwarded-Proto (one hop) for request.secure.
  app.set('trust proxy', config.trustProxy ? 1 : false);
  // Helmet first, so that every response (a refusal of plain HTTP too) carries its headers.
  app.use(securityHeaders(config));
  app.use(httpsOnly(config));
  const cors = corsOptions(config);
  if (cors) app.enableCors(cors);
  app.use(jsonBodyParser(config.bodyLimit));
  app.use(formBodyParser(config.bodyLimit));
  // Paths carry the version (/v2.22/session); the supported list is configuration.
  app.enableVersioning({
    type: VersioningType.URI,
    prefix: 'v',
    defaultVersion: config.apiVersions.map((version) => version.slice(1)),
  });
  // No enableShutdownHooks(): main.ts drains in-flight requests before closing (GracefulShutdown).
  setupOpenApi(app, config);
  await app.init();
  return app;
}
