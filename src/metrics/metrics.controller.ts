import { Controller, Get, Header, Headers, HttpStatus, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../common/config/app-config';
import { MetricsService } from './metrics.service';

/**
 * Prometheus text for scrapers: no version prefix, not in the OpenAPI document. No authentication
 * unless METRICS_TOKEN is set (then Authorization: Bearer <token>); either way it must not be reachable
 * from the internet (docs/decisions.md): block /metrics at the proxy.
 */
@ApiExcludeController()
@Controller({ path: 'metrics', version: VERSION_NEUTRAL })
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) response: Response): Promise<string> {
    if (!this.authorized(authorization)) {
      // Answered here: the global filter's 401 asks for Basic credentials, a scraper sends a bearer token.
      response.status(HttpStatus.UNAUTHORIZED).setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      response.type('text/plain');
      return 'metrics token required\n';
    }
    const body = await this.metrics.render();
    response.type(this.metrics.contentType);
    return body;
  }

  private authorized(authorization: string | undefined): boolean {
    const token = this.config.metricsToken;
    if (token === null) return true;
    const given = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    // Hashes compared, so that neither the length nor the content leaks through timing.
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(given), digest(token));
  }
}
