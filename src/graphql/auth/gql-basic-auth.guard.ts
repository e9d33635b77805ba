import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { Access, ACCESS_KEY } from '../../auth/access.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../auth/user.entity';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { GraphqlContext } from '../graphql-context';

/**
 * BasicAuthGuard for GraphQL: the same passport Basic strategy (and so the same credential cache),
 * with the request taken from the GraphQL context. Guards root fields; nested fields only ever see
 * data their root field was allowed to read. @RequireAccess('write') admits merchant users only.
 */
@Injectable()
export class GqlBasicAuthGuard extends AuthGuard('basic') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  getRequest(context: ExecutionContext): Request {
    return GqlExecutionContext.create(context).getContext<GraphqlContext>().req;
  }

  getResponse(context: ExecutionContext): Response {
    return GqlExecutionContext.create(context).getContext<GraphqlContext>().res;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const principal = this.getRequest(context).user as Principal;
    const access = this.reflector.getAllAndOverride<Access>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (access === 'write' && principal.role !== Role.Merchant) throw new DomainError(ErrorCode.NotAuthorized);
    return true;
  }

  handleRequest<T>(error: unknown, principal: T, _info: unknown, context: ExecutionContext): T {
    if (error) throw error;
    if (!principal) {
      const header = this.getRequest(context).headers.authorization;
      throw new DomainError(header ? ErrorCode.InvalidCredentials : ErrorCode.AuthenticationRequired);
    }
    return principal;
  }
}
