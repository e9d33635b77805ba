import { CallHandler, CanActivate, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { clientAddressKey, RateLimiter } from './rate-limiter';

/** Probes and scrapes are never limited: an orchestrator or Prometheus must always get through. */
const EXEMPT = /^\/(health\/|metrics(\/|$))/;

/**
 * A request's count, kept on it: a GraphQL operation runs the guards once per root field, and each
 * must get the same answer (one count, and every field refused when the request is).
 */
const COUNTED_IP = Symbol('rateLimit.ip');
const COUNTED_CREDENTIAL = Symbol('rateLimit.credential');

/** What the route guards leave on the request once the caller is authenticated. */
type LimitedRequest = Request & {
  user?: { userId?: string };
  signedCall?: { merchantId?: string; payload?: unknown };
  [COUNTED_IP]?: Promise<void>;
  [COUNTED_CREDENTIAL]?: Promise<void>;
};

/** The HTTP exchange of a REST/Checkout route, or of a GraphQL operation (its context holds req and res). */
function exchangeOf(context: ExecutionContext): { request: LimitedRequest; response: Response } | null {
  if (context.getType() === 'http') {
    const http = context.switchToHttp();
    return { request: http.getRequest<LimitedRequest>(), response: http.getResponse<Response>() };
  }
  if (context.getType<string>() === 'graphql') {
    const gql = context.getArgByIndex<{ req?: LimitedRequest; res?: Response } | undefined>(2);
    if (gql?.req && gql.res) return { request: gql.req, response: gql.res };
  }
  return null;
}

/**
 * Global guard, so before any route guard: the per-IP limit counts every request, failed logins and
 * bad signatures included, before the slow password hash or the signature check runs. The client IP
 * is express's request.ip: the peer address, or X-Forwarded-For's last hop with TRUST_PROXY=1.
 */
@Injectable()
export class IpRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.rateLimit.perIpPerMinute;
    const exchange = limit === null ? null : exchangeOf(context);
    if (!exchange || EXEMPT.test(exchange.request.path)) return true;
    exchange.request[COUNTED_IP] ??= this.limiter.check('ip', clientAddressKey(exchange.request.ip), limit!, exchange.response);
    await exchange.request[COUNTED_IP];
    return true;
  }
}

/**
 * Global interceptor, so after every guard: the per-credential limit counts requests whose
 * credentials were verified, per Basic user or per signing merchant. Counting before verification
 * would let anyone who knows a username or a MerchantId (merchant pages show it) use up its quota.
 */
@Injectable()
export class CredentialRateLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const limit = this.config.rateLimit.perCredentialPerMinute;
    const exchange = limit === null ? null : exchangeOf(context);
    const credential = exchange ? credentialOf(exchange.request) : null;
    if (exchange && credential) {
      exchange.request[COUNTED_CREDENTIAL] ??= this.limiter.check('credential', credential, limit!, exchange.response);
      await exchange.request[COUNTED_CREDENTIAL];
    }
    return next.handle();
  }
}

function credentialOf(request: LimitedRequest): string | null {
  if (typeof request.user?.userId === 'string') return `user:${request.user.userId}`;
  const call = request.signedCall;
  if (call?.payload !== undefined && typeof call.merchantId === 'string') return `merchant:${call.merchantId}`;
  return null;
}
