import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Principal } from './principal';

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest().user,
);
