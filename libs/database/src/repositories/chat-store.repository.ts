import { Injectable, Optional } from '@nestjs/common';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { ReadReplica } from '../read-replica';
import type { StoredContact } from './contact-store.repository';

export interface StoredChat {
  jid: string;
  lid: string | null;
  isGroup: boolean;
  archived: boolean;
  pinned: boolean;
  muted: boolean;
  muteEndTime: Date | null;
  read: boolean;
  ephemeralSeconds: number;
  lastActivity: Date | null;
}

/** A chat with what the instance knows of the person it is with (none for groups and strangers). */
export type ChatView = StoredChat & { contact: StoredContact | null };

/** Chat settings one network event changed; fields left out stay as they were. */
export type ChatSettingsPatch = Partial<Pick<StoredChat, 'archived' | 'pinned' | 'muted' | 'muteEndTime' | 'read' | 'ephemeralSeconds'>>;

const FIELDS = {
  jid: true,
  lid: true,
  isGroup: true,
  archived: true,
  pinned: true,
  muted: true,
  muteEndTime: true,
  read: true,
  ephemeralSeconds: true,
  lastActivity: true,
} as const;

const CONTACT_FIELDS = {
  jid: true,
  lid: true,
  pushName: true,
  fullName: true,
  firstName: true,
  businessName: true,
  inAddressBook: true,
} as const;

/** The chats an instance knows, as the worker learned them from the network. */
@Injectable()
export class ChatStoreRepository {
  private readonly replica: PrismaClient;

  constructor(
    private readonly prisma: PrismaService,
    @Optional() replica?: ReadReplica,
  ) {
    this.replica = replica?.client ?? prisma;
  }

  /** Something happened in the chat at `at`: it exists, and its last activity is the latest such moment. */
  async touch(instanceId: string, jid: string, isGroup: boolean, at: Date | null): Promise<void> {
    // On the pool directly, prepared once per connection: every message event touches its chat.
    await this.prisma.pool.query({
      name: 'touch-chat',
      text: `INSERT INTO chats (instance_id, jid, is_group, last_activity, updated_at)
       VALUES ($1, $2, $3, $4::timestamp(3), now())
       ON CONFLICT (instance_id, jid) DO UPDATE
         SET last_activity = GREATEST(chats.last_activity, EXCLUDED.last_activity), updated_at = now()`,
      values: [instanceId, jid, isGroup, at ? at.toISOString() : null],
    });
  }

  async applySettings(instanceId: string, jid: string, isGroup: boolean, patch: ChatSettingsPatch): Promise<void> {
    await this.prisma.chat.upsert({
      where: { instanceId_jid: { instanceId, jid } },
      create: { instanceId, jid, isGroup, ...patch },
      update: patch,
    });
  }

  async setLid(instanceId: string, jid: string, lid: string): Promise<void> {
    await this.prisma.chat.updateMany({ where: { instanceId, jid }, data: { lid } });
  }

  /** Forgets every chat and contact of the instance (its account logged out: what it knew belongs to that account). */
  async forgetAll(instanceId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.chat.deleteMany({ where: { instanceId } }),
      this.prisma.contact.deleteMany({ where: { instanceId } }),
    ]);
  }

  async remove(instanceId: string, jid: string): Promise<void> {
    await this.prisma.chat.deleteMany({ where: { instanceId, jid } });
  }

  /** Most recent activity first; chats never active last. */
  list(instanceId: string): Promise<ChatView[]> {
    return this.listOn(this.prisma, instanceId);
  }

  find(instanceId: string, jid: string): Promise<ChatView | null> {
    return this.findOn(this.prisma, instanceId, jid);
  }

  /** `list` for a client to look at, from the read replica (may lag); never for deciding a write. */
  listFromReplica(instanceId: string): Promise<ChatView[]> {
    return this.listOn(this.replica, instanceId);
  }

  /** `find` for a client to look at, from the read replica (may lag); never for deciding a write. */
  findFromReplica(instanceId: string, jid: string): Promise<ChatView | null> {
    return this.findOn(this.replica, instanceId, jid);
  }

  private async listOn(db: PrismaClient, instanceId: string): Promise<ChatView[]> {
    const chats = await db.chat.findMany({
      where: { instanceId },
      select: FIELDS,
      orderBy: [{ lastActivity: { sort: 'desc', nulls: 'last' } }, { jid: 'asc' }],
    });
    return this.withContacts(db, instanceId, chats);
  }

  private async findOn(db: PrismaClient, instanceId: string, jid: string): Promise<ChatView | null> {
    const chat = await db.chat.findUnique({ where: { instanceId_jid: { instanceId, jid } }, select: FIELDS });
    return chat ? (await this.withContacts(db, instanceId, [chat]))[0] : null;
  }

  private async withContacts(db: PrismaClient, instanceId: string, chats: StoredChat[]): Promise<ChatView[]> {
    const people = chats.filter((chat) => !chat.isGroup).map((chat) => chat.jid);
    const contacts =
      people.length === 0
        ? []
        : await db.contact.findMany({
            where: { instanceId, OR: [{ jid: { in: people } }, { lid: { in: people } }] },
            select: CONTACT_FIELDS,
          });
    const byJid = new Map<string, StoredContact>();
    for (const contact of contacts) {
      byJid.set(contact.jid, contact);
      if (contact.lid && !byJid.has(contact.lid)) byJid.set(contact.lid, contact);
    }
    return chats.map((chat) => ({ ...chat, contact: chat.isGroup ? null : (byJid.get(chat.jid) ?? null) }));
  }
}
