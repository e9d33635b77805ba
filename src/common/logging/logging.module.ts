import { Global, Module } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { storage, Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { createHttpLogger, createRootLogger, LoggedRequest } from './logger';

/** Injection token of the app's root pino logger. */
export const ROOT_LOGGER = 'ROOT_PINO_LOGGER';

/**
 * The express middleware that gives each request its id and writes its log line (app.factory.ts puts
 * it first), then runs the rest of the request in nestjs-pino's async context with that request's
 * logger, so that Logger calls anywhere below carry its requestId. The context holds the request, not
 * its logger, which is made only if something logs (createHttpLogger).
 */
export class HttpLogger {
  readonly middleware: RequestHandler;

  constructor(root: Logger) {
    const httpLogger = createHttpLogger(root);
    this.middleware = (request: Request, response: Response, next: NextFunction) =>
      httpLogger(request, response, () => storage.run(requestStore(request as LoggedRequest), next));
  }
}

/** nestjs-pino's Store for a request, whose logger is the request's own, read when first needed. */
function requestStore(request: LoggedRequest): Store {
  const store = Object.create(Store.prototype) as Store;
  Object.defineProperty(store, 'logger', { enumerable: true, get: () => request.log! });
  return store;
}

/**
 * nestjs-pino's PinoLogger, falling back to this app's root logger outside a request. Its own
 * fallback is a module-wide singleton (the first app's logger), wrong when one process runs several
 * apps (the e2e tests: an app at LOG_LEVEL=silent would write through another app's logger).
 */
class AppPinoLogger extends PinoLogger {
  constructor(private readonly root: Logger) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Logger {
    return storage.getStore()?.logger ?? this.root;
  }
}

/**
 * Structured logs through nestjs-pino. The request logger (createHttpLogger) runs as an express
 * middleware registered by app.factory.ts before everything else (so that refusals by helmet, the HTTPS
 * check and the body parsers get a request id and a log line too) and binds req.log to the request's
 * async context (HttpLogger). nestjs-pino's Logger, which app.factory.ts makes Nest's, writes every
 * `new Logger(context)` call as JSON through that request logger (so with its requestId), or through
 * the root logger outside requests. LoggerModule itself is not imported: its route middleware,
 * registered as a catch-all route, left express's req.route set on unmatched requests (which the
 * metrics and the log line read), and its fallback logger is the singleton AppPinoLogger replaces.
 */
@Global()
@Module({
  providers: [
    { provide: ROOT_LOGGER, useFactory: (config: AppConfig) => createRootLogger(config.logLevel), inject: [AppConfig] },
    { provide: HttpLogger, useFactory: (root: Logger) => new HttpLogger(root), inject: [ROOT_LOGGER] },
    { provide: NestPinoLogger, useFactory: (root: Logger) => new NestPinoLogger(new AppPinoLogger(root), {}), inject: [ROOT_LOGGER] },
  ],
  exports: [ROOT_LOGGER, HttpLogger, NestPinoLogger],
})
export class LoggingModule {}
