import type { NextFunction, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface';
import type { TlsOptions } from 'node:tls';
import { AppConfig } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { toHttpError } from '../errors/error-body';
import { ErrorCode } from '../errors/error-codes';
import { sendError } from '../errors/global-exception.filter';

/** TLS 1.2 with forward-secret AEAD suites only; TLS 1.3 suites are all modern and stay enabled. */
const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** HTTPS server options when TLS_CERT_FILE and TLS_KEY_FILE are set (spec 5.4: TLS 1.2 or higher). */
export function httpsOptions(config: AppConfig): HttpsOptions | undefined {
  if (!config.tls) return undefined;
  // Passed on to https.createServer as is; Nest's type just lacks minVersion.
  const options: TlsOptions = {
    cert: readFileSync(config.tls.certFile),
    key: readFileSync(config.tls.keyFile),
    minVersion: 'TLSv1.2',
    ciphers: TLS12_CIPHERS,
    honorCipherOrder: true,
  };
  return options as HttpsOptions;
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Production: a request that did not arrive over TLS (here, or at a trusted proxy that says so in
 * X-Forwarded-Proto) is refused before anything runs; secure responses carry HSTS.
 */
export function httpsOnly(config: AppConfig) {
  const refusal = toHttpError(new DomainError(ErrorCode.HttpsRequired));
  return (request: Request, response: Response, next: NextFunction) => {
    if (config.environment !== 'production') return next();
    if (!request.secure) return sendError(response, refusal.status, refusal.body);
    response.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}
