import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-codes';

/** Requests with a body must be application/json (spec section 5.4), else 415 before anything runs. */
@Injectable()
export class RequireJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.is('application/json')) throw new DomainError(ErrorCode.UnsupportedMediaType);
    return next.handle();
  }
}
