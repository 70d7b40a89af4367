import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '@app/contracts';
import { DashboardUserRepository } from '@app/database';
import { DashboardSessions, type ActiveSession } from '../auth/dashboard-sessions';
import { clientAddress } from '../auth/authenticator';
import { RateLimits } from '../auth/rate-limits';
import { clearSessionCookie } from '../auth/session-cookie';
import type { SignedInDto, SignInDto } from './dto/dashboard.dto';
import { passwordMatches } from './passwords';

@Injectable()
export class SignInService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly sessions: DashboardSessions,
    private readonly limits: RateLimits,
  ) {}

  /** One answer for an unknown email and a wrong password; failures count per address and per email address. */
  async signIn(dto: SignInDto, request: Request, response: Response): Promise<SignedInDto> {
    this.sessions.assertSameOrigin(request);
    const address = clientAddress(request);
    await this.limits.assertSignInAllowed(address, dto.email);
    const user = await this.users.forSignIn(dto.email);
    if (!(await passwordMatches(user?.passwordHash ?? null, dto.password)) || !user) {
      await this.limits.recordSignInFailure(address, dto.email);
      throw new AppError('wrong_credentials');
    }
    if (user.customerDisabled) throw new AppError('customer_disabled');
    const csrfToken = await this.sessions.start(user.id, request, response);
    await this.users.recordSignIn(user.id, new Date());
    return { user: { id: user.id, email: user.email, customerId: user.customerId, customerName: user.customerName }, csrfToken };
  }

  current(session: ActiveSession): SignedInDto {
    const { record, csrfToken } = session;
    return {
      user: { id: record.userId, email: record.email, customerId: record.customerId, customerName: record.customerName },
      csrfToken,
    };
  }

  async signOut(request: Request, response: Response): Promise<void> {
    await this.sessions.end(request);
    clearSessionCookie(request, response);
  }

  async signOutEverywhere(session: ActiveSession, request: Request, response: Response): Promise<void> {
    await this.sessions.endAllOfUser(session.record.userId);
    clearSessionCookie(request, response);
  }
}
