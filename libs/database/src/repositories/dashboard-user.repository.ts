import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export type DashboardLinkPurpose = 'invite' | 'password_reset';

export interface NewDashboardUser {
  id: string;
  /** Lower-cased by the caller. */
  email: string;
}

export interface NewDashboardLink {
  id: string;
  tokenHash: string;
  purpose: DashboardLinkPurpose;
  expiresAt: Date;
}

export interface DashboardUserRecord {
  id: string;
  customerId: string;
  email: string;
  /** `invited` until a password was set through a link. */
  status: 'active' | 'invited';
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** What sign-in needs to decide: never leaves the auth code. */
export interface SignInCandidate {
  id: string;
  email: string;
  customerId: string;
  customerName: string;
  customerDisabled: boolean;
  passwordHash: string | null;
}

export interface DashboardLinkRecord {
  purpose: DashboardLinkPurpose;
  expiresAt: Date;
  usedAt: Date | null;
  userId: string;
  email: string;
  customerId: string;
  customerName: string;
  customerDisabled: boolean;
}

export type RemoveOutcome = 'removed' | 'not_found' | 'last_active_user';

const USER_FIELDS = { id: true, customerId: true, email: true, passwordHash: true, createdAt: true, lastSignInAt: true } as const;

function toRecord(row: {
  id: string;
  customerId: string;
  email: string;
  passwordHash: string | null;
  createdAt: Date;
  lastSignInAt: Date | null;
}): DashboardUserRecord {
  return {
    id: row.id,
    customerId: row.customerId,
    email: row.email,
    status: row.passwordHash ? 'active' : 'invited',
    createdAt: row.createdAt,
    lastSignInAt: row.lastSignInAt,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'P2002';
}

/** Dashboard users and their one-time links (invites, password resets). Tokens are only ever seen as hashes here. */
@Injectable()
export class DashboardUserRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A new invited user with its invite link; `email_taken` when any customer already has a user with that address. */
  async createInvited(customerId: string, user: NewDashboardUser, link: NewDashboardLink): Promise<DashboardUserRecord | 'email_taken'> {
    try {
      const row = await this.prisma.dashboardUser.create({
        data: { ...user, customerId, links: { create: link } },
        select: USER_FIELDS,
      });
      return toRecord(row);
    } catch (error) {
      if (isUniqueViolation(error)) return 'email_taken';
      throw error;
    }
  }

  async list(customerId: string): Promise<DashboardUserRecord[]> {
    const rows = await this.prisma.dashboardUser.findMany({
      where: { customerId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: USER_FIELDS,
    });
    return rows.map(toRecord);
  }

  async find(customerId: string, userId: string): Promise<DashboardUserRecord | null> {
    const row = await this.prisma.dashboardUser.findFirst({ where: { id: userId, customerId }, select: USER_FIELDS });
    return row ? toRecord(row) : null;
  }

  async forSignIn(email: string): Promise<SignInCandidate | null> {
    const row = await this.prisma.dashboardUser.findUnique({
      where: { email },
      select: { id: true, email: true, customerId: true, passwordHash: true, customer: { select: { name: true, disabledAt: true } } },
    });
    if (!row) return null;
    return {
      id: row.id,
      email: row.email,
      customerId: row.customerId,
      customerName: row.customer.name,
      customerDisabled: row.customer.disabledAt !== null,
      passwordHash: row.passwordHash,
    };
  }

  async recordSignIn(userId: string, at: Date): Promise<void> {
    await this.prisma.dashboardUser.updateMany({ where: { id: userId }, data: { lastSignInAt: at } });
  }

  /** A further link for a user of this customer; false when there is no such user. */
  async addLink(customerId: string, userId: string, link: NewDashboardLink): Promise<boolean> {
    const user = await this.prisma.dashboardUser.findFirst({ where: { id: userId, customerId }, select: { id: true } });
    if (!user) return false;
    await this.prisma.dashboardLink.create({ data: { ...link, userId } });
    return true;
  }

  async findLink(tokenHash: string): Promise<DashboardLinkRecord | null> {
    const row = await this.prisma.dashboardLink.findUnique({
      where: { tokenHash },
      select: {
        purpose: true,
        expiresAt: true,
        usedAt: true,
        user: { select: { id: true, email: true, customerId: true, customer: { select: { name: true, disabledAt: true } } } },
      },
    });
    if (!row) return null;
    return {
      purpose: row.purpose,
      expiresAt: row.expiresAt,
      usedAt: row.usedAt,
      userId: row.user.id,
      email: row.user.email,
      customerId: row.user.customerId,
      customerName: row.user.customer.name,
      customerDisabled: row.user.customer.disabledAt !== null,
    };
  }

  /**
   * Uses the link once: only the first of concurrent callers finds it unused and unexpired. The password is set, every
   * other open link of the user is closed and every session of the user ends, all in one commit. Returns the user's
   * id, or null when the link was unknown, expired or already used.
   */
  async consumeLink(tokenHash: string, passwordHash: string, now: Date): Promise<string | null> {
    return this.prisma.$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<{ user_id: string }[]>`
        UPDATE dashboard_links SET used_at = ${now}
        WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}
        RETURNING user_id`;
      const userId = claimed[0]?.user_id;
      if (!userId) return null;
      await tx.dashboardUser.update({ where: { id: userId }, data: { passwordHash } });
      await tx.dashboardLink.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
      await tx.dashboardSession.deleteMany({ where: { userId } });
      return userId;
    });
  }

  /**
   * Removes a user (their links and sessions go with them). The customer's row is locked first, so two concurrent
   * removals cannot both see "someone else is still active" and leave nobody.
   */
  async remove(customerId: string, userId: string): Promise<RemoveOutcome> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`;
      const user = await tx.dashboardUser.findFirst({ where: { id: userId, customerId }, select: { passwordHash: true } });
      if (!user) return 'not_found';
      if (user.passwordHash) {
        const otherActive = await tx.dashboardUser.count({ where: { customerId, id: { not: userId }, passwordHash: { not: null } } });
        if (otherActive === 0) return 'last_active_user';
      }
      await tx.dashboardUser.delete({ where: { id: userId } });
      return 'removed';
    });
  }
}
