import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '@app/contracts';
import { DashboardUserRepository } from '@app/database';
import { DashboardSessions } from '../auth/dashboard-sessions';
import { clientAddress } from '../auth/authenticator';
import { RateLimits } from '../auth/rate-limits';
import type { LinkInfoDto, SignedInDto } from './dto/dashboard.dto';
import { hashLinkToken as hashToken } from './link-issuer';
import { assertAcceptablePassword, hashPassword } from './passwords';

/** One-time links (invites and password resets): described and used here. */
@Injectable()
export class DashboardLinks {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly sessions: DashboardSessions,
    private readonly limits: RateLimits,
  ) {}

  async describe(token: string, request: Request): Promise<LinkInfoDto> {
    const link = await this.usable(token, request);
    return { email: link.email, customerName: link.customerName, expiresAt: link.expiresAt.toISOString(), purpose: link.purpose };
  }

  /** Sets the password, uses the link up, ends every other session of the user, and signs this browser in. */
  async accept(token: string, password: string, request: Request, response: Response): Promise<SignedInDto> {
    this.sessions.assertSameOrigin(request);
    const link = await this.usable(token, request);
    assertAcceptablePassword(password);
    const userId = await this.users.consumeLink(hashToken(token), await hashPassword(password), new Date());
    // Another request used the link (or it expired) while the password was hashed.
    if (!userId) throw new AppError('link_gone');
    const csrfToken = await this.sessions.start(userId, request, response);
    await this.users.recordSignIn(userId, new Date());
    return { user: { id: userId, email: link.email, customerId: link.customerId, customerName: link.customerName }, csrfToken };
  }

  /** 404 for a token that never existed (counted as a failed authentication of the address), 410 once used or expired. */
  private async usable(token: string, request: Request) {
    const address = clientAddress(request);
    await this.limits.assertAddressNotBlocked(address);
    const link = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.users.findLink(hashToken(token)) : null;
    if (!link) {
      await this.limits.recordAuthFailure(address);
      throw new AppError('not_found');
    }
    if (link.usedAt || link.expiresAt.getTime() <= Date.now()) throw new AppError('link_gone');
    if (link.customerDisabled) throw new AppError('customer_disabled');
    return link;
  }
}
