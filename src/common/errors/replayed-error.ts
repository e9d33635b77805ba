import { ErrorBody } from './error-body';

/** A stored error response replayed to a retried request (Idempotency-Key); sent exactly as stored. */
export class ReplayedError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.Code);
  }
}
