import type { NextFunction, Request, Response } from 'express';
import { MetricsRegistry } from './metrics.registry';

/** The label for requests that no route matched (404s, static files, refusals by earlier middleware). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Express middleware, registered before everything else but the shutdown counter (app.factory.ts), so
 * that it sees every response, errors included. The route label is the matched pattern, read when the
 * response is finished: express sets req.route when a route matches, and Nest registers each route
 * with its version prefix (/v2.22/session/:SessionId). Never the raw URL: ids would explode cardinality.
 */
export class HttpMetrics {
  constructor(private readonly metrics: MetricsRegistry) {}

  readonly track = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const labels = { method: request.method, route: routeOf(request), status: String(response.statusCode) };
      this.metrics.httpRequests.inc(labels);
      this.metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    // 'close' alone also covers requests whose client went away before the answer was finished.
    response.once('finish', finish);
    response.once('close', finish);
    next();
  };
}

function routeOf(request: Request): string {
  const path: unknown = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  return `${request.baseUrl ?? ''}${path}` || UNMATCHED_ROUTE;
}
