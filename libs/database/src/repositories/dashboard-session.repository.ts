import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface DashboardSessionRecord {
  id: string;
  userId: string;
  email: string;
  customerId: string;
  customerName: string;
  customerDisabled: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** Server-side dashboard sessions, found by the SHA-256 of the cookie's token (the token itself is never stored). */
@Injectable()
export class DashboardSessionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Also drops sessions that ended: the user's own (idle since `idleBefore`, or past their absolute expiry) and anyone's
   * past their absolute expiry (indexed), so abandoned sessions do not pile up.
   */
  async create(session: { id: string; tokenHash: string; userId: string; expiresAt: Date }, idleBefore: Date): Promise<void> {
    const now = new Date();
    await this.prisma.$transaction([
      this.prisma.dashboardSession.deleteMany({
        where: { OR: [{ expiresAt: { lte: now } }, { userId: session.userId, lastSeenAt: { lt: idleBefore } }] },
      }),
      this.prisma.dashboardSession.create({ data: session }),
    ]);
  }

  async find(tokenHash: string): Promise<DashboardSessionRecord | null> {
    const row = await this.prisma.dashboardSession.findUnique({
      where: { tokenHash },
      select: {
        id: true,
        createdAt: true,
        lastSeenAt: true,
        expiresAt: true,
        user: { select: { id: true, email: true, customerId: true, customer: { select: { name: true, disabledAt: true } } } },
      },
    });
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user.id,
      email: row.user.email,
      customerId: row.user.customerId,
      customerName: row.user.customer.name,
      customerDisabled: row.user.customer.disabledAt !== null,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      expiresAt: row.expiresAt,
    };
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.prisma.dashboardSession.updateMany({ where: { id }, data: { lastSeenAt: at } });
  }

  async delete(id: string): Promise<void> {
    await this.prisma.dashboardSession.deleteMany({ where: { id } });
  }

  async deleteAllOfUser(userId: string): Promise<number> {
    return (await this.prisma.dashboardSession.deleteMany({ where: { userId } })).count;
  }

  async deleteAllOfCustomer(customerId: string): Promise<number> {
    return (await this.prisma.dashboardSession.deleteMany({ where: { user: { customerId } } })).count;
  }
}
