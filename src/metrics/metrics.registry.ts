import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * One prom-client Registry per application instance (never the global default registry: several apps
 * run in one Jest process, and each would see the others' counters). The process/Node default metrics
 * (CPU, memory, event-loop lag, GC, handles) are collected into it.
 */
export class MetricsRegistry {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the first middleware to the end of the response, by method, matched route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
