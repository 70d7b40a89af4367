import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface NetworkMessageRecord {
  id: string;
  chatJid: string;
  fromMe: boolean;
  senderJid: string | null;
  sentAt: Date;
  /** The WAMessage in Baileys' JSON form; opaque to this layer. */
  data: string;
}

/** Recent real-network messages per instance, kept for retries, quotes and chat ranges; pruned by age. */
@Injectable()
export class NetworkMessageRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Stores messages; a message seen again (history sync, append after notify) keeps its first copy. */
  async save(instanceId: string, messages: NetworkMessageRecord[]): Promise<void> {
    if (messages.length === 0) return;
    await this.prisma.networkMessage.createMany({ data: messages.map((message) => ({ ...message, instanceId })), skipDuplicates: true });
  }

  /** A message by id; `chatJid` narrows it when the same id appears in two chats. */
  async find(instanceId: string, id: string, chatJid?: string): Promise<NetworkMessageRecord | null> {
    return this.prisma.networkMessage.findFirst({
      where: { instanceId, id, ...(chatJid ? { chatJid } : {}) },
      select: { id: true, chatJid: true, fromMe: true, senderJid: true, sentAt: true, data: true },
    });
  }

  /** The chat's newest messages, newest first. */
  latest(instanceId: string, chatJid: string, limit: number): Promise<NetworkMessageRecord[]> {
    return this.prisma.networkMessage.findMany({
      where: { instanceId, chatJid },
      orderBy: { sentAt: 'desc' },
      take: limit,
      select: { id: true, chatJid: true, fromMe: true, senderJid: true, sentAt: true, data: true },
    });
  }

  /** The newest `perChat` messages of every chat the instance keeps messages of; newest first within each chat. */
  async recentPerChat(instanceId: string, perChat: number): Promise<NetworkMessageRecord[]> {
    const chats = await this.prisma.networkMessage.findMany({ where: { instanceId }, distinct: ['chatJid'], select: { chatJid: true } });
    const perChatLists = await Promise.all(chats.map(({ chatJid }) => this.latest(instanceId, chatJid, perChat)));
    return perChatLists.flat();
  }

  async forgetChat(instanceId: string, chatJid: string): Promise<void> {
    await this.prisma.networkMessage.deleteMany({ where: { instanceId, chatJid } });
  }

  async forgetAll(instanceId: string): Promise<void> {
    await this.prisma.networkMessage.deleteMany({ where: { instanceId } });
  }

  /** Drops what was stored before `before`; answers how many went. */
  async prune(before: Date): Promise<number> {
    const { count } = await this.prisma.networkMessage.deleteMany({ where: { createdAt: { lt: before } } });
    return count;
  }
}
