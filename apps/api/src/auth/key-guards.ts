import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, type CustomerScope, type InstanceScope } from '@app/contracts';
import type { KeyPrincipal } from '@app/database';
import { secretsEqual } from '@app/security';
import { DashboardSessions } from './dashboard-sessions.service';
import { KeyResolver } from './key-resolver.service';
import { RateLimits } from './rate-limits.service';
import type { ScopedRequest } from './scope';
import { carriesSessionCookie } from './session-cookie';

function header(request: ScopedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function clientAddress(request: ScopedRequest): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}

interface Authenticated {
  principal: KeyPrincipal;
  keyHash: string;
  /** Authenticated by a dashboard session cookie (which acts for its customer like the customer key). */
  viaSession?: boolean;
}

/** Shared steps: refuse blocked addresses, count failures, rate-limit successes per key. */
@Injectable()
export class Authenticator {
  constructor(
    private readonly keys: KeyResolver,
    private readonly limits: RateLimits,
    private readonly sessions: DashboardSessions,
  ) {}

  /** `X-Api-Key` when sent; otherwise a dashboard session cookie (with the CSRF check on state-changing requests). */
  async principal(request: ScopedRequest): Promise<Authenticated> {
    const address = clientAddress(request);
    await this.limits.assertAddressNotBlocked(address);
    const key = header(request, 'x-api-key');
    if (!key && carriesSessionCookie(request)) return this.sessionPrincipal(request, address);
    const resolved = key ? await this.keys.resolve(key) : null;
    if (!resolved) return this.reject(address);
    if (resolved.principal.customerDisabled) throw new AppError('customer_disabled');
    await this.limits.consumeRequest(resolved.keyHash);
    return resolved;
  }

  private async sessionPrincipal(request: ScopedRequest, address: string): Promise<Authenticated> {
    const session = await this.sessions.authenticate(request);
    if (!session) return this.reject(address);
    request.dashboardSession = session;
    await this.limits.consumeRequest(session.record.id);
    return {
      principal: { kind: 'customer', customerId: session.record.customerId, customerDisabled: false },
      keyHash: session.record.id,
      viaSession: true,
    };
  }

  async reject(address: string): Promise<never> {
    await this.limits.recordAuthFailure(address);
    throw new AppError('unauthorized');
  }

  async ownerOf(instanceId: string): Promise<string | null> {
    return this.keys.ownerOf(instanceId);
  }
}

/** `/account/*`: the customer key only. */
@Injectable()
export class CustomerKeyGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const { principal } = await this.auth.principal(request);
    // A valid key used on the wrong plane is a client mistake, not a guess: refuse it without counting a failure.
    if (principal.kind !== 'customer') throw new AppError('unauthorized');
    request.scope = Object.freeze<CustomerScope>({ customerId: principal.customerId });
    return true;
  }
}

/** Instance endpoints: `X-Instance-Id` plus the customer's key or that instance's own key. */
@Injectable()
export class InstanceKeyGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const { principal, viaSession } = await this.auth.principal(request);
    const instanceId = header(request, 'x-instance-id');
    if (!instanceId) throw new AppError('missing_instance_header');
    const allowed =
      principal.kind === 'instance' ? principal.instanceId === instanceId : (await this.auth.ownerOf(instanceId)) === principal.customerId;
    if (!allowed) throw new AppError('unauthorized');
    request.scope = Object.freeze<InstanceScope>({
      customerId: principal.customerId,
      instanceId,
      via: principal.kind === 'instance' ? 'instance_key' : viaSession ? 'dashboard_session' : 'customer_key',
    });
    return true;
  }
}

/** Dashboard-only routes (`/auth/session`, sign-out): a session cookie, never a key. */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly auth: Authenticator,
    private readonly limits: RateLimits,
    private readonly sessions: DashboardSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const address = clientAddress(request);
    await this.limits.assertAddressNotBlocked(address);
    const session = await this.sessions.authenticate(request);
    if (!session) return this.auth.reject(address);
    request.dashboardSession = session;
    request.scope = Object.freeze<CustomerScope>({ customerId: session.record.customerId });
    return true;
  }
}

/** `/admin/*`: the operator key from configuration. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: Authenticator,
    private readonly limits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const address = clientAddress(request);
    await this.limits.assertAddressNotBlocked(address);
    const key = header(request, 'x-admin-key');
    if (!key || !secretsEqual(key, this.config.adminApiKey)) return this.auth.reject(address);
    return true;
  }
}
