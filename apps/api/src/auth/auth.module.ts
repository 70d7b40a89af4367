import { Global, Module } from '@nestjs/common';
import { AdminKeyGuard, Authenticator, CustomerKeyGuard, InstanceKeyGuard } from './key-guards';
import { KeyResolver } from './key-resolver.service';
import { RateLimits } from './rate-limits.service';

@Global()
@Module({
  providers: [KeyResolver, RateLimits, Authenticator, CustomerKeyGuard, InstanceKeyGuard, AdminKeyGuard],
  exports: [KeyResolver, RateLimits, Authenticator, CustomerKeyGuard, InstanceKeyGuard, AdminKeyGuard],
})
export class AuthModule {}
