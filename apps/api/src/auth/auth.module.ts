import { Global, Module } from '@nestjs/common';
import { Authenticator } from './authenticator';
import { CredentialsBeforeBody } from './credentials-before-body';
import { AdminKeyGuard, CustomerKeyGuard, InstanceKeyGuard } from './key-guards';
import { KeyResolver } from './key-resolver.service';
import { RateLimits } from './rate-limits.service';

@Global()
@Module({
  providers: [KeyResolver, RateLimits, Authenticator, CredentialsBeforeBody, CustomerKeyGuard, InstanceKeyGuard, AdminKeyGuard],
  exports: [KeyResolver, RateLimits, Authenticator, CredentialsBeforeBody, CustomerKeyGuard, InstanceKeyGuard, AdminKeyGuard],
})
export class AuthModule {}
