import { INestApplication, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './common/config/app-config';
import { formBodyParser, jsonBodyParser } from './common/http/json-body-parser';
import { nestLogLevels } from './common/http/log-levels';
import { setupOpenApi } from './common/http/openapi';
import { corsOptions, securityHeaders } from './common/http/security-headers';
import { ExpressAdapterWithTimeouts, serverTimeoutOptions } from './common/http/server-timeouts';
import { httpsOnly, httpsOptions } from './common/http/transport-security';
import { HttpLogger } from './common/logging/logging.module';
import { REQUEST_ID_HEADER } from './common/logging/request-id';
import { HttpMetrics } from './metrics/http-metrics.middleware';

export interface CreateAppOptions {
  /** Middleware that must see every request first (main.ts counts in-flight requests for shutdown). */
  beforeRoutes?: RequestHandler[];
}

/** Builds the whole HTTP application; main.ts listens on it, e2e tests drive it with supertest. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<INestApplication> {
  // The adapter creates the HTTP(S) server with the configured request, headers and keep-alive timeouts.
  const adapter = new ExpressAdapterWithTimeouts(serverTimeoutOptions(config));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), adapter, {
    bodyParser: false,
    httpsOptions: httpsOptions(config),
    logger: nestLogLevels(config.logLevel),
    // Held until Nest's logger is pino's (below), so that start-up lines are JSON too.
    bufferLogs: true,
    // Throw instead of process.exit, so that main.ts reports the cause and tests see it.
    abortOnError: false,
  });
  // Every Logger call (Nest's own and ours) goes to pino as JSON, with the request id when in a request.
  app.useLogger(app.get(PinoNestLogger));
  // Nest flushes the buffer on listen() only; tests never listen (supertest), so flush now.
  app.flushLogs();
  app.disable('x-powered-by');
  // No ETag: no answer here is conditional (a POST's never is, and a session or payment page is read
  // fresh), and Express hashed every body for it, a 40 kB dashboard page included.
  app.set('etag', false);
  for (const handler of options.beforeRoutes ?? []) app.use(handler);
  // The request id (X-Request-Id) and the one log line per request, before anything can answer.
  app.use(app.get(HttpLogger).middleware);
  // Next, so that every response is counted (refusals by the middleware below and errors included).
  app.use(app.get(HttpMetrics).track);
  // Behind a TLS-terminating proxy, trust its X-Forwarded-Proto (one hop) for request.secure.
  app.set('trust proxy', config.trustProxy ? 1 : false);
  // Helmet first, so that every response (a refusal of plain HTTP too) carries its headers.
  app.use(securityHeaders(config));
  app.use(httpsOnly(config));
  const cors = corsOptions(config);
  // Browsers may send X-Request-Id and read it back (to quote it with an error).
  if (cors) {
    app.enableCors({
      ...cors,
      allowedHeaders: [...toList(cors.allowedHeaders), REQUEST_ID_HEADER],
      exposedHeaders: [...toList(cors.exposedHeaders), REQUEST_ID_HEADER],
    });
  }
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

const toList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : value.split(','));
