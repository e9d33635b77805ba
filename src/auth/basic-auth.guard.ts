import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { Access, ACCESS_KEY } from './access.decorator';
import { AuthenticationService } from './authentication.service';
import { parseBasicAuthorization } from './basic-credentials';
import { Role } from './user.entity';

/**
 * Basic auth with the spec's 401 bodies, then the role check of DESIGN.md section 3. The header is
 * parsed in-house (no passport): each app instance checks against its own AuthenticationService.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: AuthenticationService,
  ) {}

  /** Where the request is; the GraphQL guard takes it from the GraphQL context instead. */
  getRequest(context: ExecutionContext): Request {
    return context.switchToHttp().getRequest<Request>();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = this.getRequest(context);
    const header = request.headers.authorization;
    const credentials = parseBasicAuthorization(header);
    const principal = credentials && (await this.authentication.authenticate(credentials.username, credentials.password));
    // Any header that does not yield a principal (malformed, another scheme, wrong password) is "invalid".
    if (!principal) throw new DomainError(header ? ErrorCode.InvalidCredentials : ErrorCode.AuthenticationRequired);
    request.user = principal;

    const access = this.reflector.getAllAndOverride<Access>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (access === 'write' && principal.role !== Role.Merchant) throw new DomainError(ErrorCode.NotAuthorized);
    return true;
  }
}
