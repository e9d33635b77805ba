import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { RequestWithSignedCall } from './signed-call';

/** The verified JSON object of a signed call; validated against the parameter's DTO class like a body. */
export const SignedPayload = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<RequestWithSignedCall>().signedCall?.payload,
);
