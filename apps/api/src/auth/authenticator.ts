import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import type { KeyPrincipal } from '@app/database';
import { secretsEqual } from '@app/security';
import { DashboardSessions, type ActiveSession } from './dashboard-sessions';
import { KeyResolver } from './key-resolver';
import { RateLimits } from './rate-limits';
import type { ScopedRequest } from './scope';
import { carriesSessionCookie } from './session-cookie';

export interface AuthenticatedKey {
  principal: KeyPrincipal;
  /** The key's id for rate limits; never the key itself. */
  keyHash: string;
  /** Authenticated by a dashboard session cookie (which acts for its customer like the customer key). */
  viaSession?: boolean;
}

const KEY_OUTCOME = Symbol('api key outcome');
const ADMIN_OUTCOME = Symbol('admin key outcome');

type MemoRequest = ScopedRequest & { [KEY_OUTCOME]?: Promise<AuthenticatedKey>; [ADMIN_OUTCOME]?: Promise<void> };

export function header(request: ScopedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The client as Express sees it under `TRUST_PROXY` (hop count or proxy list; never the client-written leftmost entry). */
export function clientAddress(request: ScopedRequest): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}

/**
 * Who sent a request. The outcome is memoised on the request, so the check that runs before the body is read and the
 * route's guard share one key lookup, one failure count and one rate-limit point.
 *
 * A valid key is never refused by the failed-authentication block: the block exists to stop key guessing, and an
 * address may be shared (NAT, proxies) or have been aimed at. Only missing and invalid credentials meet it.
 */
@Injectable()
export class Authenticator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: KeyResolver,
    private readonly limits: RateLimits,
    private readonly sessions: DashboardSessions,
  ) {}

  /**
   * `X-Api-Key` → its principal; without the header, a dashboard session cookie (with the CSRF check on state-changing
   * requests) acts as its customer's key. 429 for a blocked address or a key over its limit, 401 otherwise.
   */
  authenticate(request: ScopedRequest): Promise<AuthenticatedKey> {
    const memo = request as MemoRequest;
    memo[KEY_OUTCOME] ??= this.resolveKey(request);
    return memo[KEY_OUTCOME];
  }

  /** `X-Admin-Key` against the operator key from configuration. */
  authenticateAdmin(request: ScopedRequest): Promise<void> {
    const memo = request as MemoRequest;
    memo[ADMIN_OUTCOME] ??= this.checkAdminKey(request);
    return memo[ADMIN_OUTCOME];
  }

  /** Whether the principal may act on this instance (its own key, or its customer's key). */
  async mayUseInstance(principal: KeyPrincipal, instanceId: string): Promise<boolean> {
    if (principal.kind === 'instance') return principal.instanceId === instanceId;
    return (await this.keys.ownerOf(instanceId)) === principal.customerId;
  }

  /** The dashboard session of a session-only route (`/auth/session`, sign-out); refused like a bad key otherwise. */
  async authenticateSession(request: ScopedRequest): Promise<ActiveSession> {
    const session = await this.sessions.authenticate(request);
    if (!session) return this.refuse(request);
    request.dashboardSession = session;
    return session;
  }

  private async resolveKey(request: ScopedRequest): Promise<AuthenticatedKey> {
    const key = header(request, 'x-api-key');
    if (!key && carriesSessionCookie(request)) return this.resolveSession(request);
    const resolved = key ? await this.keys.resolve(key) : null;
    if (!resolved) return this.refuse(request);
    if (resolved.principal.customerDisabled) throw new AppError('customer_disabled');
    await this.limits.consumeRequest(resolved.keyHash);
    return resolved;
  }

  private async resolveSession(request: ScopedRequest): Promise<AuthenticatedKey> {
    const session = await this.authenticateSession(request);
    await this.limits.consumeRequest(session.record.id);
    const principal = { kind: 'customer', customerId: session.record.customerId, customerDisabled: false } as const;
    return { principal, keyHash: session.record.id, viaSession: true };
  }

  private async checkAdminKey(request: ScopedRequest): Promise<void> {
    const key = header(request, 'x-admin-key');
    if (!key || !secretsEqual(key, this.config.adminApiKey)) await this.refuse(request);
  }

  /** 429 while the address is blocked, otherwise the failure is counted and the answer is 401. */
  private async refuse(request: ScopedRequest): Promise<never> {
    const address = clientAddress(request);
    await this.limits.assertAddressNotBlocked(address);
    await this.limits.recordAuthFailure(address);
    throw new AppError('unauthorized');
  }
}
