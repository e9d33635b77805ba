import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import * as http from 'node:http';
import * as https from 'node:https';
import { AppConfig } from '../config/app-config';

/**
 * node:http options for the configured timeouts. requestTimeout bounds receiving a whole request
 * (headers and body: a client dribbling its body is cut off with 408), headersTimeout its headers
 * (slowloris), keepAliveTimeout an idle kept-alive connection. Node checks the first two every
 * connectionsCheckingInterval (30 s by default, which would let a slow client run on well past its
 * limit): here a quarter of the shorter limit, at most one second.
 */
export function serverTimeoutOptions(config: AppConfig): http.ServerOptions {
  const { requestMs, headersMs, keepAliveMs } = config.httpTimeouts;
  return {
    requestTimeout: requestMs,
    headersTimeout: headersMs,
    keepAliveTimeout: keepAliveMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(Math.min(requestMs, headersMs) / 4))),
  };
}

/**
 * Nest's express adapter creates its server without options, and connectionsCheckingInterval can only
 * be given when a server is created: this adapter creates it with them (HTTPS too, with its TLS options).
 */
export class ExpressAdapterWithTimeouts extends ExpressAdapter {
  constructor(private readonly timeouts: http.ServerOptions) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const server = options?.httpsOptions
      ? https.createServer({ ...options.httpsOptions, ...this.timeouts } as https.ServerOptions, this.getInstance())
      : http.createServer(this.timeouts, this.getInstance());
    // Not a createServer option before Node 22: set on the server (same effect).
    if (this.timeouts.keepAliveTimeout !== undefined) server.keepAliveTimeout = this.timeouts.keepAliveTimeout;
    this.setHttpServer(server);
  }
}
