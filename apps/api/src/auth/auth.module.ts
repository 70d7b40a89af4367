import { Global, Module } from '@nestjs/common';
import { DashboardSessions } from './dashboard-sessions.service';
import { AdminKeyGuard, Authenticator, CustomerKeyGuard, DashboardSessionGuard, InstanceKeyGuard } from './key-guards';
import { KeyResolver } from './key-resolver.service';
import { RateLimits } from './rate-limits.service';

@Global()
@Module({
  providers: [
    KeyResolver,
    RateLimits,
    DashboardSessions,
    Authenticator,
    CustomerKeyGuard,
    InstanceKeyGuard,
    DashboardSessionGuard,
    AdminKeyGuard,
  ],
  exports: [
    KeyResolver,
    RateLimits,
    DashboardSessions,
    Authenticator,
    CustomerKeyGuard,
    InstanceKeyGuard,
    DashboardSessionGuard,
    AdminKeyGuard,
  ],
})
export class AuthModule {}
