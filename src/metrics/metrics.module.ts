import { Module } from '@nestjs/common';
import { HttpMetrics } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { MetricsService } from './metrics.service';

/** GET /metrics; HttpMetrics is taken from here by app.factory.ts and put before every other middleware. */
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: MetricsRegistry, useFactory: () => new MetricsRegistry() },
    { provide: HttpMetrics, useFactory: (metrics: MetricsRegistry) => new HttpMetrics(metrics), inject: [MetricsRegistry] },
    MetricsService,
  ],
  exports: [HttpMetrics, MetricsService],
})
export class MetricsModule {}
