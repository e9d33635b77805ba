import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { Principal } from '../../auth/principal';
import { GraphqlContext } from '../graphql-context';

/** The authenticated caller of a guarded root field (set by GqlBasicAuthGuard). */
export const GqlPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => GqlExecutionContext.create(context).getContext<GraphqlContext>().req.user as Principal,
);
