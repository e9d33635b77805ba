import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (answers on kept-alive
 * connections say Connection: close), then close the app, which closes the database pool. Nest's own
 * shutdown hooks would close the pool first and fail requests that were already running.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private inFlight = 0;
  private stopping = false;
  private drained: (() => void) | null = null;

  constructor(private readonly drainTimeoutMs = 10_000) {}

  /** Express middleware: counts requests until their response is finished or aborted. */
  readonly track = (request: Request, response: Response, next: NextFunction): void => {
    this.inFlight++;
    if (this.stopping) response.setHeader('Connection', 'close');
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (this.stopping && this.inFlight === 0) this.drained?.();
    };
    response.once('finish', finish);
    response.once('close', finish);
    next();
  };

  listen(app: INestApplication, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
    for (const signal of signals) process.once(signal, () => void this.stop(app, signal));
  }

  async stop(app: INestApplication, reason: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const server = app.getHttpServer() as Server;
    this.logger.log(`${reason}: no new connections; waiting for ${this.inFlight} request(s) in flight`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections?.();

    const drained = this.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.drained = resolve));
    const timedOut = await Promise.race([drained.then(() => false), sleep(this.drainTimeoutMs).then(() => true)]);
    if (timedOut) this.logger.warn(`${this.inFlight} request(s) still running after ${this.drainTimeoutMs} ms: closing anyway`);
    server.closeAllConnections?.();
    await Promise.race([closed, sleep(1000)]);
    await app.close();
    this.logger.log('stopped');
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
