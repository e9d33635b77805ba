import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ipLiteral, isPublicAddress, publicOnlyLookup, TargetRefused } from './target-guard';

/** Any 2xx within this is a delivery (DESIGN.md section 7). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookPost {
  url: string;
  body: string;
  signature: string;
  /** False in production by default: only public addresses may be reached (target-guard.ts). */
  allowPrivateTargets: boolean;
  /** Aborts the attempt (the instance is shutting down). */
  signal: AbortSignal;
}

/** Why an attempt got no status: time-out, shutdown, refused target, or the connection's own error. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly interrupted = false,
  ) {
    super(message);
  }
}

/**
 * POSTs one notification and resolves with the receiver's status as soon as it arrives (its body is
 * discarded). Redirects are not followed (a 3xx is simply not a 2xx). One connection per attempt.
 */
export function postWebhook(post: WebhookPost): Promise<number> {
  const url = new URL(post.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new DeliveryError('the notify URL is not http(s)'));
  const literal = ipLiteral(url);
  if (!post.allowPrivateTargets && literal !== null && !isPublicAddress(literal)) {
    return Promise.reject(new DeliveryError(new TargetRefused(`${literal} is not a public address`).message));
  }
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  const signal = AbortSignal.any([timeout, post.signal]);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        agent: false,
        signal,
        ...(post.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(post.body),
          'User-Agent': 'payment-session-checkout-notifications/1',
          Signature: post.signature,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (post.signal.aborted) reject(new DeliveryError('interrupted: the instance shut down', true));
      else if (timeout.aborted) reject(new DeliveryError(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`));
      else if (error instanceof TargetRefused || error.code === 'ETARGETREFUSED') reject(new DeliveryError(error.message));
      // Node's connection errors name the address and port, never the path or query of the URL.
      else reject(new DeliveryError(error.message.slice(0, 300)));
    });
    request.end(post.body);
  });
}
