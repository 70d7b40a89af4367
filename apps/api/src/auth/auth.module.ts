import { Global, Module } from '@nestjs/common';
import { Authenticator } from './authenticator';
import { CredentialsBeforeBody } from './credentials-before-body';
import { DashboardSessions } from './dashboard-sessions';
import { AdminKeyGuard, CustomerKeyGuard, DashboardSessionGuard, InstanceKeyGuard } from './key-guards';
import { KeyResolver } from './key-resolver';
import { RateLimits } from './rate-limits';

/** Everything authentication needs, all of it available to every module. */
const AUTH_PROVIDERS = [
  KeyResolver,
  RateLimits,
  DashboardSessions,
  Authenticator,
  CredentialsBeforeBody,
  CustomerKeyGuard,
  InstanceKeyGuard,
  DashboardSessionGuard,
  AdminKeyGuard,
];

@Global()
@Module({ providers: AUTH_PROVIDERS, exports: AUTH_PROVIDERS })
export class AuthModule {}
