import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config';

/**
 * Responses that merchant pages on other sites embed: the fingerprint script (<script src>), the
 * hidden fingerprint frame (<iframe>), the badge and flag images (<img>), and the payment component
 * (component.js and the /pay pages in its iframe, which set their own CSP). They must not carry
 * Cross-Origin-Resource-Policy: same-origin or X-Frame-Options, or browsers would block them.
 */
const EMBEDDED = /^\/(assets\/|component\.js|pay\/|fingerprint(\/|\?|$)|v[^/]+\/fingerprint(\?|$))/;

/**
 * Helmet's headers on every response. The CSP allows only this origin: the one HTML page served
 * without its own policy is Swagger UI at /docs (swagger-ui-dist from this service, no CDN), whose
 * page and React components use inline styles and data: images; its scripts are files from /docs.
 * Pages with stricter needs (the fingerprint frame) set their own Content-Security-Policy, which
 * replaces this one. HSTS is not set here: transport-security.ts sends it, on HTTPS in production only.
 */
export function securityHeaders(config: AppConfig) {
  const contentSecurityPolicy = {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'connect-src': ["'self'"],
      'font-src': ["'self'", 'data:'],
      'form-action': ["'self'"],
      'frame-ancestors': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      // Over plain HTTP (sandbox) this would send the page's own assets to an https:// that is not there.
      ...(config.environment === 'production' ? { 'upgrade-insecure-requests': [] } : {}),
    },
  };
  const strict = helmet({ hsts: false, contentSecurityPolicy });
  const embeddable = helmet({ hsts: false, contentSecurityPolicy, crossOriginResourcePolicy: { policy: 'cross-origin' }, frameguard: false });
  return (request: Request, response: Response, next: NextFunction) =>
    (EMBEDDED.test(request.originalUrl) ? embeddable : strict)(request, response, next);
}

/** CORS is closed unless CORS_ORIGINS lists origins; then only those exact origins get CORS headers. */
export function corsOptions(config: AppConfig): CorsOptions | null {
  if (config.corsOrigins.length === 0) return null;
  const allowed = new Set(config.corsOrigins);
  return {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Signature', 'Idempotent-Replayed', 'Location', 'Retry-After'],
    maxAge: 600,
  };
}
