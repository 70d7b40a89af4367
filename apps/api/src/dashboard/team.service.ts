import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, type CustomerScope } from '@app/contracts';
import { DashboardUserRepository, type DashboardUserRecord } from '@app/database';
import { newId } from '@app/security';
import { LinkIssuer } from './link-issuer';
import type { InvitedUserDto, InviteUserDto, TeamMemberDto } from './dto/dashboard.dto';

export function toTeamMember(user: DashboardUserRecord): TeamMemberDto {
  return {
    id: user.id,
    email: user.email,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
    ...(user.lastSignInAt ? { lastSignInAt: user.lastSignInAt.toISOString() } : {}),
  };
}

/** The customer's dashboard users: listed, invited (link shown once) and removed. */
@Injectable()
export class TeamService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly links: LinkIssuer,
  ) {}

  async list(scope: CustomerScope): Promise<TeamMemberDto[]> {
    return (await this.users.list(scope.customerId)).map(toTeamMember);
  }

  async invite(scope: CustomerScope, dto: InviteUserDto, request?: Request): Promise<InvitedUserDto> {
    const link = this.links.issue('invite');
    const user = await this.users.createInvited(scope.customerId, { id: newId('usr'), email: dto.email }, link.record);
    if (user === 'email_taken') throw new AppError('email_taken');
    return {
      user: toTeamMember(user),
      inviteUrl: this.links.url(link.token, request),
      inviteExpiresAt: link.record.expiresAt.toISOString(),
    };
  }

  /** Their sessions and open links end with them; the last user who can sign in stays. */
  async remove(scope: CustomerScope, userId: string): Promise<void> {
    const outcome = await this.users.remove(scope.customerId, userId);
    if (outcome === 'not_found') throw new AppError('not_found');
    if (outcome === 'last_active_user') throw new AppError('last_active_user');
  }
}
