import { Injectable, Optional } from '@nestjs/common';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { ReadReplica } from '../read-replica';

export interface StoredContact {
  jid: string;
  lid: string | null;
  pushName: string | null;
  fullName: string | null;
  firstName: string | null;
  businessName: string | null;
  inAddressBook: boolean;
}

/** What one network event tells about a person; fields left out stay as they were. */
export type ContactPatch = Partial<Omit<StoredContact, 'jid'>>;

const FIELDS = { jid: true, lid: true, pushName: true, fullName: true, firstName: true, businessName: true, inAddressBook: true } as const;

/** The people an instance knows, as the worker learned them from the network. */
@Injectable()
export class ContactStoreRepository {
  private readonly replica: PrismaClient;

  constructor(
    private readonly prisma: PrismaService,
    @Optional() replica?: ReadReplica,
  ) {
    this.replica = replica?.client ?? prisma;
  }

  async upsert(instanceId: string, jid: string, patch: ContactPatch): Promise<void> {
    await this.prisma.contact.upsert({
      where: { instanceId_jid: { instanceId, jid } },
      create: { instanceId, jid, ...patch },
      update: patch,
    });
  }

  /**
   * The phone's whole address book, as a full sync reports it: listed people get their names, and people the store
   * still had in the address book but the sync no longer lists drop out of it.
   */
  async replaceAddressBook(
    instanceId: string,
    entries: { jid: string; lid?: string; fullName: string; firstName?: string }[],
  ): Promise<void> {
    const listed = entries.map((entry) => entry.jid);
    await this.prisma.$transaction([
      this.prisma.contact.updateMany({
        where: { instanceId, inAddressBook: true, jid: { notIn: listed } },
        data: { inAddressBook: false, fullName: null, firstName: null },
      }),
      ...entries.map(({ jid, lid, fullName, firstName }) => {
        const patch = { fullName, firstName: firstName ?? null, inAddressBook: true, ...(lid ? { lid } : {}) };
        return this.prisma.contact.upsert({
          where: { instanceId_jid: { instanceId, jid } },
          create: { instanceId, jid, ...patch },
          update: patch,
        });
      }),
    ]);
  }

  find(instanceId: string, jid: string): Promise<StoredContact | null> {
    return this.prisma.contact.findUnique({ where: { instanceId_jid: { instanceId, jid } }, select: FIELDS });
  }

  /** The person behind a LID, when the network told us both identities. */
  byLid(instanceId: string, lid: string): Promise<StoredContact | null> {
    return this.prisma.contact.findFirst({ where: { instanceId, lid }, select: FIELDS });
  }

  list(instanceId: string): Promise<StoredContact[]> {
    return this.prisma.contact.findMany({ where: { instanceId }, select: FIELDS, orderBy: { jid: 'asc' } });
  }

  /** `find` for a client to look at, from the read replica (may lag); never for deciding a write. */
  findFromReplica(instanceId: string, jid: string): Promise<StoredContact | null> {
    return this.replica.contact.findUnique({ where: { instanceId_jid: { instanceId, jid } }, select: FIELDS });
  }

  /** `byLid` for a client to look at, from the read replica (may lag); never for deciding a write. */
  byLidFromReplica(instanceId: string, lid: string): Promise<StoredContact | null> {
    return this.replica.contact.findFirst({ where: { instanceId, lid }, select: FIELDS });
  }

  /** `list` for a client to look at, from the read replica (may lag); never for deciding a write. */
  listFromReplica(instanceId: string): Promise<StoredContact[]> {
    return this.replica.contact.findMany({ where: { instanceId }, select: FIELDS, orderBy: { jid: 'asc' } });
  }

  byJids(instanceId: string, jids: string[]): Promise<StoredContact[]> {
    if (jids.length === 0) return Promise.resolve([]);
    return this.prisma.contact.findMany({ where: { instanceId, jid: { in: jids } }, select: FIELDS });
  }
}
