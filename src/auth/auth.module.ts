import { Module } from '@nestjs/common';
import { AuthenticationService } from './authentication.service';
import { BasicAuthGuard } from './basic-auth.guard';
import { MerchantService } from './merchant.service';
import { SigningSecretService } from './signing-secret.service';
import { UserService } from './user.service';

@Module({
  providers: [AuthenticationService, BasicAuthGuard, MerchantService, UserService, SigningSecretService],
  exports: [AuthenticationService, BasicAuthGuard, MerchantService, UserService, SigningSecretService],
})
export class AuthModule {}
