import { Global, Module } from '@nestjs/common';
import { Authenticator } from './authenticator';
import { CredentialsBeforeBody } from './credentials-before-body';
import { DashboardSessions } from './dashboard-sessions';
import { AdminKeyGuard, CustomerKeyGuard, DashboardSessionGuard, InstanceKeyGuard } from './key-guards';
import { KeyResolver } from './key-resolver';
import { RateLimits } from './rate-limits';

@Global()
@Module({
  providers: [
    KeyResolver,
    RateLimits,
    DashboardSessions,
    Authenticator,
    CredentialsBeforeBody,
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
    CredentialsBeforeBody,
    CustomerKeyGuard,
    InstanceKeyGuard,
    DashboardSessionGuard,
    AdminKeyGuard,
  ],
})
export class AuthModule {}
