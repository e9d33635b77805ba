import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { AuthenticationService } from './authentication.service';
import { Principal } from './principal';

@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasicStrategy, 'basic') {
  constructor(private readonly authentication: AuthenticationService) {
    super();
  }

  async validate(username: string, password: string): Promise<Principal> {
    const principal = await this.authentication.authenticate(username, password);
    if (!principal) throw new DomainError(ErrorCode.InvalidCredentials);
    return principal;
  }
}
