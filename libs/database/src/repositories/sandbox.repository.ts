import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';

export interface SandboxDeviceState {
  phone: string | null;
  deviceId: string | null;
  online: boolean;
}

export interface SandboxGroupInput {
  jid: string;
  name: string;
  kind: 'group' | 'community' | 'announcement' | 'subgroup';
  parentJid: string | null;
  inviteCode: string;
  participants: { jid: string; role: 'member' | 'admin' | 'superadmin' }[];
}

export interface SandboxGroupRecord {
  jid: string;
  name: string;
  kind: SandboxGroupInput['kind'];
  parentJid: string | null;
  inviteCode: string;
  description: string | null;
  pictureId: string | null;
  locked: boolean;
  announce: boolean;
  joinApproval: boolean;
  memberAddMode: string;
  ephemeralSeconds: number;
  createdAt: Date;
  participants: { jid: string; role: 'member' | 'admin' | 'superadmin' }[];
}

const GROUP_FIELDS = {
  jid: true,
  name: true,
  kind: true,
  parentJid: true,
  inviteCode: true,
  description: true,
  pictureId: true,
  locked: true,
  announce: true,
  joinApproval: true,
  memberAddMode: true,
  ephemeralSeconds: true,
  createdAt: true,
  participants: { select: { jid: true, role: true }, orderBy: { jid: 'asc' } },
} as const;

/** One group change, applied as a whole. */
export interface SandboxGroupUpdate {
  kind?: SandboxGroupInput['kind'];
  name?: string;
  description?: string | null;
  pictureId?: string | null;
  inviteCode?: string;
  parentJid?: string | null;
  locked?: boolean;
  announce?: boolean;
  joinApproval?: boolean;
  memberAddMode?: string;
  ephemeralSeconds?: number;
  add?: string[];
  remove?: string[];
  roles?: { jid: string; role: 'member' | 'admin' | 'superadmin' }[];
}

export interface SandboxChatSettings {
  muted?: boolean;
  muteEndTime?: Date | null;
  pinned?: boolean;
  archived?: boolean;
  read?: boolean;
  ephemeralSeconds?: number;
}

export interface SandboxNewsletterRecord {
  jid: string;
  name: string;
  role: string;
  muted: boolean;
}

export interface SandboxMessageRecord {
  id: string;
  seq: bigint;
  direction: 'outbound' | 'inbound';
  chatJid: string;
  senderJid: string;
  type: string;
  content: Record<string, unknown>;
  status: string;
  at: Date;
}

/** State of the simulated network, kept in PostgreSQL so it survives restarts and worker takeover. */
@Injectable()
export class SandboxRepository {
  constructor(private readonly prisma: PrismaService) {}

  async device(instanceId: string): Promise<SandboxDeviceState> {
    // On the pool directly, prepared once per connection: every simulated send reads it.
    const { rows } = await this.prisma.pool.query<{ phone: string | null; device_id: string | null; online: boolean }>({
      name: 'sandbox-device',
      text: 'SELECT phone, device_id, online FROM sandbox_devices WHERE instance_id = $1',
      values: [instanceId],
    });
    const row = rows[0];
    return { phone: row?.phone ?? null, deviceId: row?.device_id ?? null, online: row?.online ?? true };
  }

  async pair(instanceId: string, phone: string, deviceId: string): Promise<void> {
    await this.prisma.sandboxDevice.upsert({
      where: { instanceId },
      create: { instanceId, phone, deviceId, pairedAt: new Date(), online: true },
      update: { phone, deviceId, pairedAt: new Date(), online: true },
    });
  }

  async unpair(instanceId: string): Promise<void> {
    await this.prisma.sandboxDevice.updateMany({ where: { instanceId }, data: { deviceId: null, pairedAt: null } });
  }

  async setOnline(instanceId: string, online: boolean): Promise<void> {
    await this.prisma.sandboxDevice.upsert({ where: { instanceId }, create: { instanceId, online }, update: { online } });
  }

  async upsertContact(
    instanceId: string,
    contact: { jid: string; lid?: string; pushName?: string; fullName?: string; businessName?: string },
  ): Promise<void> {
    const fields = {
      lid: contact.lid ?? null,
      pushName: contact.pushName ?? null,
      fullName: contact.fullName ?? null,
      businessName: contact.businessName ?? null,
    };
    await this.prisma.sandboxContact.upsert({
      where: { instanceId_jid: { instanceId, jid: contact.jid } },
      create: { instanceId, jid: contact.jid, ...fields },
      update: fields,
    });
  }

  async contact(instanceId: string, jid: string) {
    return this.prisma.sandboxContact.findUnique({ where: { instanceId_jid: { instanceId, jid } } });
  }

  async contacts(instanceId: string) {
    return this.prisma.sandboxContact.findMany({ where: { instanceId } });
  }

  /** Records the name a contact shows; answers the one it showed before (null when none). */
  async setPushName(instanceId: string, jid: string, pushName: string): Promise<string | null> {
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.sandboxContact.findUnique({ where: { instanceId_jid: { instanceId, jid } }, select: { pushName: true } });
      await tx.sandboxContact.upsert({
        where: { instanceId_jid: { instanceId, jid } },
        create: { instanceId, jid, pushName },
        update: { pushName },
      });
      return before?.pushName ?? null;
    });
  }

  async group(instanceId: string, jid: string): Promise<SandboxGroupRecord | null> {
    const row = await this.prisma.sandboxGroup.findUnique({
      where: { instanceId_jid: { instanceId, jid } },
      select: GROUP_FIELDS,
    });
    return row ? this.toGroup(row) : null;
  }

  /** Groups matching the filter (e.g. a community's groups by `parentJid`, or the one with an invite code), oldest first. */
  async groups(
    instanceId: string,
    filter: { parentJid?: string; inviteCode?: string; member?: string } = {},
  ): Promise<SandboxGroupRecord[]> {
    const rows = await this.prisma.sandboxGroup.findMany({
      where: {
        instanceId,
        ...(filter.parentJid !== undefined ? { parentJid: filter.parentJid } : {}),
        ...(filter.inviteCode !== undefined ? { inviteCode: filter.inviteCode } : {}),
        ...(filter.member !== undefined ? { participants: { some: { jid: filter.member } } } : {}),
      },
      select: GROUP_FIELDS,
      orderBy: [{ createdAt: 'asc' }, { jid: 'asc' }],
    });
    return rows.map((row) => this.toGroup(row));
  }

  async deleteGroup(instanceId: string, jid: string): Promise<void> {
    await this.prisma.sandboxGroup.deleteMany({ where: { instanceId, jid } });
  }

  private toGroup(
    row: Omit<SandboxGroupRecord, 'kind' | 'participants'> & { kind: string; participants: { jid: string; role: string }[] },
  ): SandboxGroupRecord {
    return {
      ...row,
      kind: row.kind as SandboxGroupRecord['kind'],
      participants: row.participants.map((p) => ({ jid: p.jid, role: p.role as SandboxGroupRecord['participants'][number]['role'] })),
    };
  }

  async updateGroup(instanceId: string, jid: string, update: SandboxGroupUpdate): Promise<void> {
    const where = { instanceId_jid: { instanceId, jid } };
    const key = { instanceId, groupJid: jid };
    await this.prisma.$transaction([
      this.prisma.sandboxGroup.update({
        where,
        data: {
          kind: update.kind,
          name: update.name,
          description: update.description,
          pictureId: update.pictureId,
          inviteCode: update.inviteCode,
          parentJid: update.parentJid,
          locked: update.locked,
          announce: update.announce,
          joinApproval: update.joinApproval,
          memberAddMode: update.memberAddMode,
          ephemeralSeconds: update.ephemeralSeconds,
        },
      }),
      this.prisma.sandboxGroupParticipant.createMany({
        data: (update.add ?? []).map((member) => ({ ...key, jid: member, role: 'member' })),
        skipDuplicates: true,
      }),
      this.prisma.sandboxGroupParticipant.deleteMany({ where: { ...key, jid: { in: update.remove ?? [] } } }),
      ...(update.roles ?? []).map((change) =>
        this.prisma.sandboxGroupParticipant.update({
          where: { instanceId_groupJid_jid: { ...key, jid: change.jid } },
          data: { role: change.role },
        }),
      ),
    ]);
  }

  async updateChat(instanceId: string, jid: string, settings: SandboxChatSettings): Promise<void> {
    await this.prisma.sandboxChat.upsert({
      where: { instanceId_jid: { instanceId, jid } },
      create: { instanceId, jid, ...settings },
      update: settings,
    });
  }

  /** The chats the phone has pinned. */
  async pinnedChats(instanceId: string): Promise<string[]> {
    const rows = await this.prisma.sandboxChat.findMany({ where: { instanceId, pinned: true }, select: { jid: true } });
    return rows.map((row) => row.jid);
  }

  /** The phone deletes a chat: its settings and messages are gone. */
  async forgetChat(instanceId: string, jid: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.sandboxMessage.deleteMany({ where: { instanceId, chatJid: jid } }),
      this.prisma.sandboxChat.deleteMany({ where: { instanceId, jid } }),
    ]);
  }

  async chat(instanceId: string, jid: string) {
    return this.prisma.sandboxChat.findUnique({ where: { instanceId_jid: { instanceId, jid } } });
  }

  async joinNewsletter(instanceId: string, newsletter: { jid: string; name: string; role: string }): Promise<void> {
    await this.prisma.sandboxNewsletter.create({ data: { instanceId, ...newsletter } });
  }

  async newsletter(instanceId: string, jid: string): Promise<SandboxNewsletterRecord | null> {
    return this.prisma.sandboxNewsletter.findUnique({
      where: { instanceId_jid: { instanceId, jid } },
      select: { jid: true, name: true, role: true, muted: true },
    });
  }

  /** Channels the phone follows, oldest follow first. */
  async newsletters(instanceId: string): Promise<SandboxNewsletterRecord[]> {
    return this.prisma.sandboxNewsletter.findMany({
      where: { instanceId },
      orderBy: [{ joinedAt: 'asc' }, { jid: 'asc' }],
      select: { jid: true, name: true, role: true, muted: true },
    });
  }

  async leaveNewsletter(instanceId: string, jid: string): Promise<void> {
    await this.prisma.sandboxNewsletter.deleteMany({ where: { instanceId, jid } });
  }

  async muteNewsletter(instanceId: string, jid: string, muted: boolean): Promise<void> {
    await this.prisma.sandboxNewsletter.update({ where: { instanceId_jid: { instanceId, jid } }, data: { muted } });
  }

  /** Creates groups (a community with its announcement group and sub-groups) in one transaction. */
  async createGroups(instanceId: string, groups: SandboxGroupInput[]): Promise<void> {
    await this.prisma.$transaction(
      groups.map((group) =>
        this.prisma.sandboxGroup.create({
          data: {
            instanceId,
            jid: group.jid,
            name: group.name,
            kind: group.kind,
            parentJid: group.parentJid,
            inviteCode: group.inviteCode,
            participants: { create: group.participants.map((p) => ({ jid: p.jid, role: p.role })) },
          },
        }),
      ),
    );
  }

  async recordMessage(
    instanceId: string,
    message: Omit<SandboxMessageRecord, 'seq' | 'at' | 'status'> & { status?: string },
  ): Promise<SandboxMessageRecord> {
    const row = await this.prisma.sandboxMessage.create({
      data: { ...message, instanceId, content: message.content as Prisma.InputJsonObject },
    });
    return this.toMessage(row);
  }

  /** Many messages in one statement, stored (and numbered) in this order. */
  async recordMessages(
    instanceId: string,
    messages: Omit<SandboxMessageRecord, 'seq' | 'at' | 'status'>[],
  ): Promise<SandboxMessageRecord[]> {
    if (messages.length === 0) return [];
    const at = new Date();
    const { rows } = await this.prisma.pool.query<{ id: string; seq: string }>(
      `INSERT INTO sandbox_messages (instance_id, id, direction, chat_jid, sender_jid, type, content, at)
       SELECT $1, t.id, t.direction, t.chat_jid, t.sender_jid, t.type, t.content, $3::timestamp(3)
       FROM jsonb_to_recordset($2::jsonb) AS t(ord int, id text, direction text, chat_jid text, sender_jid text, type text, content jsonb)
       ORDER BY t.ord
       RETURNING id, seq::text AS seq`,
      [
        instanceId,
        JSON.stringify(
          messages.map((message, ord) => ({
            ord,
            id: message.id,
            direction: message.direction,
            chat_jid: message.chatJid,
            sender_jid: message.senderJid,
            type: message.type,
            content: message.content,
          })),
        ),
        at.toISOString(),
      ],
    );
    const seqs = new Map(rows.map((row) => [row.id, BigInt(row.seq)]));
    return messages.map((message) => ({ ...message, seq: seqs.get(message.id) as bigint, status: 'sent', at }));
  }

  async message(instanceId: string, id: string): Promise<SandboxMessageRecord | null> {
    const row = await this.prisma.sandboxMessage.findUnique({ where: { instanceId_id: { instanceId, id } } });
    return row ? this.toMessage(row) : null;
  }

  /** Records the message unless the network already has this id; then it only counts the duplicate. */
  async receiveOnce(instanceId: string, message: Omit<SandboxMessageRecord, 'seq' | 'at' | 'status'>): Promise<'received' | 'duplicate'> {
    // On the pool directly, prepared once per connection: this is the simulated network's side of every send.
    const inserted = await this.prisma.pool.query({
      name: 'sandbox-receive',
      text: `INSERT INTO sandbox_messages (instance_id, id, direction, chat_jid, sender_jid, type, content, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::timestamp(3)) ON CONFLICT DO NOTHING`,
      values: [
        instanceId,
        message.id,
        message.direction,
        message.chatJid,
        message.senderJid,
        message.type,
        JSON.stringify(message.content),
        new Date().toISOString(),
      ],
    });
    if (inserted.rowCount === 1) return 'received';
    await this.prisma.sandboxMessage.update({
      where: { instanceId_id: { instanceId, id: message.id } },
      data: { duplicates: { increment: 1 } },
    });
    return 'duplicate';
  }

  async updateContent(instanceId: string, id: string, content: Record<string, unknown>): Promise<void> {
    await this.prisma.sandboxMessage.update({
      where: { instanceId_id: { instanceId, id } },
      data: { content: content as Prisma.InputJsonObject },
    });
  }

  async setMessageStatus(instanceId: string, id: string, status: string): Promise<void> {
    await this.prisma.sandboxMessage.update({ where: { instanceId_id: { instanceId, id } }, data: { status } });
  }

  async messages(instanceId: string, direction?: 'outbound' | 'inbound'): Promise<SandboxMessageRecord[]> {
    const rows = await this.prisma.sandboxMessage.findMany({
      where: { instanceId, ...(direction ? { direction } : {}) },
      orderBy: { seq: 'asc' },
    });
    return rows.map((row) => this.toMessage(row));
  }

  /** Removes everything the simulated network knew about an instance. */
  async forget(instanceId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.sandboxMessage.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxGroup.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxContact.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxDevice.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxChat.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxNewsletter.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxRecord.deleteMany({ where: { instanceId } }),
      this.prisma.sandboxOperation.deleteMany({ where: { instanceId } }),
    ]);
  }

  private toMessage(row: {
    id: string;
    seq: bigint;
    direction: string;
    chatJid: string;
    senderJid: string;
    type: string;
    content: Prisma.JsonValue;
    status: string;
    at: Date;
  }): SandboxMessageRecord {
    return {
      id: row.id,
      seq: row.seq,
      direction: row.direction as SandboxMessageRecord['direction'],
      chatJid: row.chatJid,
      senderJid: row.senderJid,
      type: row.type,
      content: row.content as Record<string, unknown>,
      status: row.status,
      at: row.at,
    };
  }
}
