import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { DashboardSessionRepository, type DashboardSessionRecord } from '@app/database';
import { newId, secretsEqual } from '@app/security';
import { readSessionCookie, setSessionCookie } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Writing the last use on every request would cost a write per request; idle expiry does not need that precision. */
const TOUCH_EVERY_MS = 60_000;

export interface ActiveSession {
  record: DashboardSessionRecord;
  /** What the browser must echo in `X-CSRF-Token` on every state-changing request. */
  csrfToken: string;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Dashboard sessions: a random token in an HttpOnly cookie, only its SHA-256 in PostgreSQL, idle and absolute expiry.
 * The CSRF token is an HMAC of the session token under a key derived from ENCRYPTION_KEY: it is bound to the session,
 * needs no storage, and cannot be computed from anything a page of another origin can read.
 */
@Injectable()
export class DashboardSessions {
  private readonly csrfKey: Buffer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: DashboardSessionRepository,
  ) {
    this.csrfKey = createHmac('sha256', config.encryptionKey).update('dashboard-csrf-v1').digest();
  }

  /**
   * Signs the user in on this browser: always a new token (a session id the browser brought along is never adopted,
   * and the session it named is ended). Returns the CSRF token.
   */
  async start(userId: string, request: Request, response: Response): Promise<string> {
    await this.end(request);
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const { sessionIdleSeconds, sessionMaxSeconds } = this.config.dashboard;
    await this.sessions.create(
      { id: newId('ses'), tokenHash: hashToken(token), userId, expiresAt: new Date(now + sessionMaxSeconds * 1000) },
      new Date(now - sessionIdleSeconds * 1000),
    );
    setSessionCookie(request, response, token, sessionMaxSeconds);
    return this.csrfTokenOf(token);
  }

  /**
   * The request's live session, or null (no cookie, unknown, idle too long, past its absolute expiry). A disabled
   * customer's session is refused with 403; a state-changing request must pass the CSRF check (403 otherwise).
   */
  async authenticate(request: Request): Promise<ActiveSession | null> {
    const token = readSessionCookie(request);
    if (!token) return null;
    const record = await this.sessions.find(hashToken(token));
    if (!record) return null;
    const now = Date.now();
    const idleMs = this.config.dashboard.sessionIdleSeconds * 1000;
    if (record.expiresAt.getTime() <= now || now - record.lastSeenAt.getTime() >= idleMs) {
      await this.sessions.delete(record.id);
      return null;
    }
    if (record.customerDisabled) throw new AppError('customer_disabled');
    const csrfToken = this.csrfTokenOf(token);
    if (!SAFE_METHODS.has(request.method)) this.assertCsrf(request, csrfToken);
    if (now - record.lastSeenAt.getTime() >= Math.min(TOUCH_EVERY_MS, idleMs / 4)) await this.sessions.touch(record.id, new Date(now));
    return { record, csrfToken };
  }

  /** Ends the session the request's cookie names, if any. */
  async end(request: Request): Promise<void> {
    const token = readSessionCookie(request);
    if (!token) return;
    const record = await this.sessions.find(hashToken(token));
    if (record) await this.sessions.delete(record.id);
  }

  async endAllOfUser(userId: string): Promise<void> {
    await this.sessions.deleteAllOfUser(userId);
  }

  /**
   * Cross-site request forgery: refused unless `X-CSRF-Token` carries the session's token and the `Origin` header, when
   * the browser sent one, is this server's own origin.
   */
  assertCsrf(request: Request, csrfToken: string): void {
    const sent = request.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !secretsEqual(sent, csrfToken)) throw new AppError('csrf');
    this.assertSameOrigin(request);
  }

  /** A request from a page of another origin (by its `Origin` header) is refused; sign-in uses this before any session exists. */
  assertSameOrigin(request: Request): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = [`${request.protocol}://${request.headers.host ?? ''}`];
    if (this.config.dashboard.publicBaseUrl) own.push(new URL(this.config.dashboard.publicBaseUrl).origin);
    if (!own.includes(origin)) throw new AppError('csrf');
  }

  private csrfTokenOf(token: string): string {
    return createHmac('sha256', this.csrfKey).update(token).digest('base64url');
  }
}
