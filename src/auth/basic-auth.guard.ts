import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { Access, ACCESS_KEY } from './access.decorator';
import { Principal } from './principal';
import { Role } from './user.entity';

/** Basic auth with the spec's 401 bodies, then the role check of DESIGN.md section 3. */
@Injectable()
export class BasicAuthGuard extends AuthGuard('basic') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  /** Where the request is; the GraphQL guard takes it from the GraphQL context instead. */
  getRequest(context: ExecutionContext): Request {
    return context.switchToHttp().getRequest<Request>();
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
