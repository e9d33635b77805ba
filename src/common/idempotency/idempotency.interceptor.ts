import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { Principal } from '../../auth/principal';
import { DomainError } from '../errors/domain-error';
import { ErrorBody, toHttpError } from '../errors/error-body';
import { ReplayedError } from '../errors/replayed-error';
import { ErrorCode } from '../errors/error-codes';
import { fromFrameworkError } from '../errors/framework-errors';
import { FieldErrorCode } from '../errors/field-error';
import { IdempotencyService } from './idempotency.service';

const HEADER = 'idempotency-key';
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key on POST/PUT: the first response (success or client error) is stored and replayed
 * with Idempotent-Replayed: true; the same key in flight is 409 DUPLICATE_REQUEST, with another body 422.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const key = request.header(HEADER);
    if (key === undefined) return next.handle();
    if (!KEY_FORMAT.test(key)) {
      throw new DomainError(ErrorCode.InvalidRequest, undefined, [
        { Field: 'Idempotency-Key', Code: FieldErrorCode.Invalid, Message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' },
      ]);
    }
    const merchantId = (request.user as Principal).merchantId!;
    const hash = IdempotencyService.hashRequest(request.method, request.path, request.body);
    const successStatus = request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK;

    return from(this.idempotency.claim(merchantId, key, hash)).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'replay') {
          response.setHeader('Idempotent-Replayed', 'true');
          if (claim.status >= 400) throw new ReplayedError(claim.status, claim.body as ErrorBody);
          response.status(claim.status);
          return of(claim.body);
        }
        return next.handle().pipe(
          mergeMap((body) => from(this.idempotency.complete(merchantId, key, successStatus, body).then(() => body))),
          catchError((error: unknown) => {
            const known = fromFrameworkError(error);
            const remembered = known && known.code !== ErrorCode.DuplicateRequest
              ? (() => {
                  const { status, body } = toHttpError(known);
                  return this.idempotency.complete(merchantId, key, status, body);
                })()
              : this.idempotency.release(merchantId, key);
            return from(remembered).pipe(mergeMap(() => throwError(() => error)));
          }),
        );
      }),
    );
  }
}
