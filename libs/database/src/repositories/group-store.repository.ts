import { Injectable, Logger } from '@nestjs/common';
import { WireDecodeError, decodeShape, groupMembersSchema, type GroupInfo, type GroupMember } from '@app/contracts';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';

/** A change one `group` event reports; fields left out stay as they were. */
export interface GroupMetadataPatch {
  name?: string;
  description?: string | null;
  locked?: boolean;
  announce?: boolean;
  joinApproval?: boolean;
  memberAddMode?: string;
  ephemeralSeconds?: number;
  join?: { jid: string; lid?: string }[];
  leave?: string[];
  roles?: { jid: string; role: GroupMember['role'] }[];
}

/** The group metadata an instance knows, as the worker learned it from the network. */
@Injectable()
export class GroupStoreRepository {
  private readonly logger = new Logger(GroupStoreRepository.name);

  constructor(private readonly prisma: PrismaService) {}

  /** The network described the whole group: the stored copy becomes exactly that. */
  async save(instanceId: string, group: GroupInfo): Promise<void> {
    const fields = {
      name: group.name,
      description: group.description ?? null,
      ownerJid: group.ownerJid ?? null,
      isCommunity: group.isCommunity,
      parentJid: group.parentJid ?? null,
      isAnnouncement: group.isAnnouncement,
      locked: group.locked,
      announce: group.announce,
      joinApproval: group.joinApproval,
      memberAddMode: group.memberAddMode,
      ephemeralSeconds: group.ephemeralSeconds,
      participants: group.participants as unknown as Prisma.InputJsonArray,
      createdAt: group.createdAt ? new Date(group.createdAt) : null,
    };
    await this.prisma.groupMetadata.upsert({
      where: { instanceId_jid: { instanceId, jid: group.jid } },
      create: { instanceId, jid: group.jid, ...fields },
      update: fields,
    });
  }

  /** Applies one change to a group already stored; groups the store has not seen whole wait for their next read. */
  async patch(instanceId: string, jid: string, patch: GroupMetadataPatch): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.groupMetadata.findUnique({ where: { instanceId_jid: { instanceId, jid } } });
      if (!row) return;
      const { join, leave, roles, ...settings } = patch;
      let participants = this.members(instanceId, jid, row.participants);
      // Unreadable: a patch cannot be applied to it; the next full read of the group replaces it.
      if (!participants) return;
      if (join?.length) {
        const known = new Set(participants.map((member) => member.jid));
        const newcomers = join.filter((person) => !known.has(person.jid));
        participants = [...participants, ...newcomers.map((person) => ({ ...person, role: 'member' as const }))];
      }
      if (leave?.length) participants = participants.filter((member) => !leave.includes(member.jid));
      for (const change of roles ?? [])
        participants = participants.map((member) => (member.jid === change.jid ? { ...member, role: change.role } : member));
      participants.sort((a, b) => a.jid.localeCompare(b.jid));
      await tx.groupMetadata.update({
        where: { instanceId_jid: { instanceId, jid } },
        data: { ...settings, participants: participants as unknown as Prisma.InputJsonArray },
      });
    });
  }

  async remove(instanceId: string, jid: string): Promise<void> {
    await this.prisma.groupMetadata.deleteMany({ where: { instanceId, jid } });
  }

  async find(instanceId: string, jid: string): Promise<GroupInfo | null> {
    const row = await this.prisma.groupMetadata.findUnique({ where: { instanceId_jid: { instanceId, jid } } });
    const participants = row ? this.members(instanceId, jid, row.participants) : undefined;
    // A copy whose members cannot be read is no copy: the caller reads the group from the network.
    if (!row || !participants) return null;
    return {
      jid: row.jid,
      name: row.name,
      ...(row.description ? { description: row.description } : {}),
      ...(row.ownerJid ? { ownerJid: row.ownerJid } : {}),
      ...(row.createdAt ? { createdAt: row.createdAt.toISOString() } : {}),
      locked: row.locked,
      announce: row.announce,
      joinApproval: row.joinApproval,
      memberAddMode: row.memberAddMode === 'all_member_add' ? 'all_member_add' : 'admin_add',
      ephemeralSeconds: row.ephemeralSeconds,
      isCommunity: row.isCommunity,
      ...(row.parentJid ? { parentJid: row.parentJid } : {}),
      isAnnouncement: row.isAnnouncement,
      participants,
    };
  }

  /** The stored members, decoded; undefined (logged and counted) when they do not decode. */
  private members(instanceId: string, jid: string, stored: unknown): GroupMember[] | undefined {
    try {
      return decodeShape('group_store', groupMembersSchema, stored);
    } catch (error) {
      if (!(error instanceof WireDecodeError)) throw error;
      this.logger.warn({ instanceId, groupJid: jid, boundary: error.boundary, reason: error.reason }, 'stored group members unreadable');
      return undefined;
    }
  }
}
