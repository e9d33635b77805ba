import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthenticationService } from './authentication.service';
import { BasicAuthGuard } from './basic-auth.guard';
import { BasicStrategy } from './basic.strategy';
import { MerchantService } from './merchant.service';
import { SigningSecretService } from './signing-secret.service';
import { UserService } from './user.service';

@Module({
  imports: [PassportModule],
  providers: [AuthenticationService, BasicStrategy, BasicAuthGuard, MerchantService, UserService, SigningSecretService],
  exports: [AuthenticationService, BasicAuthGuard, MerchantService, UserService, SigningSecretService],
})
export class AuthModule {}
