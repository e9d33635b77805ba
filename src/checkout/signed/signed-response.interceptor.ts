import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { from, mergeMap, Observable } from 'rxjs';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { RequestWithSignedCall } from './signed-call';
import { signedBody } from './signed-response';

/** Wraps what a Checkout handler returns in the signed envelope. */
@Injectable()
export class SignedResponseInterceptor implements NestInterceptor {
  constructor(private readonly signingSecrets: SigningSecretService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const call = http.getRequest<RequestWithSignedCall>().signedCall;
    return next.handle().pipe(
      mergeMap((body) =>
        from(
          signedBody(body, call, this.signingSecrets).then((signed) => {
            http.getResponse<Response>().type(signed.contentType);
            return signed.content;
          }),
        ),
      ),
    );
  }
}
