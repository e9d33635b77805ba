import { DynamicModule, Logger, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { CredentialRateLimitInterceptor, IpRateLimitGuard } from './rate-limit.guards';
import { MemoryRateLimitStore } from './rate-limit-store';
import { RATE_LIMIT_STORE, RateLimiter } from './rate-limiter';
import { RedisRateLimitStore } from './redis-rate-limit-store';

/**
 * Rate limits (RATE_LIMIT_PER_MINUTE per credential, RATE_LIMIT_IP_PER_MINUTE per client IP). With
 * neither set nothing is registered: no guard, no interceptor, no store, no cost per request.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { perCredentialPerMinute, perIpPerMinute } = config.rateLimit;
    if (perCredentialPerMinute === null && perIpPerMinute === null) return { module: RateLimitModule };
    return {
      module: RateLimitModule,
      providers: [
        {
          provide: RATE_LIMIT_STORE,
          useFactory: (appConfig: AppConfig) => {
            const url = appConfig.rateLimit.redisUrl;
            if (!url) return new MemoryRateLimitStore();
            const logger = new Logger('RateLimit');
            let last = 0;
            return new RedisRateLimitStore(url, (error) => {
              // Reconnection attempts fail repeatedly while Redis is down: say so now and then.
              if (Date.now() - last < 30_000) return;
              last = Date.now();
              logger.warn(`Redis: ${error.message}`);
            });
          },
          inject: [AppConfig],
        },
        RateLimiter,
        ...(perIpPerMinute !== null ? [{ provide: APP_GUARD, useClass: IpRateLimitGuard }] : []),
        ...(perCredentialPerMinute !== null ? [{ provide: APP_INTERCEPTOR, useClass: CredentialRateLimitInterceptor }] : []),
      ],
    };
  }
}
