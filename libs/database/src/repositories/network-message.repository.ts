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

  /**
   * Stores messages; a message seen again (history sync, append after notify) keeps its first copy. The table is
   * partitioned by `created_at`, which its key must include, so the key alone no longer refuses a second copy stored
   * later: the statement skips messages already kept (an instance's messages are saved by its one session).
   */
  async save(instanceId: string, messages: NetworkMessageRecord[]): Promise<void> {
    if (messages.length === 0) return;
    await this.prisma.$executeRaw`
      INSERT INTO network_messages (instance_id, id, chat_jid, from_me, sender_jid, sent_at, data)
      SELECT DISTINCT ON (m->>'chatJid', m->>'id') ${instanceId}, m->>'id', m->>'chatJid', (m->>'fromMe')::boolean, m->>'senderJid',
             (m->>'sentAt')::timestamp(3), m->>'data'
      FROM jsonb_array_elements(${JSON.stringify(messages)}::jsonb) WITH ORDINALITY AS given(m, ord)
      WHERE NOT EXISTS (SELECT 1 FROM network_messages n WHERE n.instance_id = ${instanceId} AND n.id = m->>'id' AND n.chat_jid = m->>'chatJid')
      ORDER BY m->>'chatJid', m->>'id', ord
      ON CONFLICT DO NOTHING`;
  }

  /**
   * A message by id; `chatJid` narrows it when the same id appears in two chats. A person's chat may be kept under
   * both of their JIDs (LID and phone number): give both, and the message is found under either.
   */
  async find(instanceId: string, id: string, chatJid?: string | string[]): Promise<NetworkMessageRecord | null> {
    return this.prisma.networkMessage.findFirst({
      where: { instanceId, id, ...(chatJid ? { chatJid: inChats(chatJid) } : {}) },
      select: { id: true, chatJid: true, fromMe: true, senderJid: true, sentAt: true, data: true },
    });
  }

  /** The chat's newest messages, newest first; a person's chat under all the JIDs given. */
  latest(instanceId: string, chatJid: string | string[], limit: number): Promise<NetworkMessageRecord[]> {
    return this.prisma.networkMessage.findMany({
      where: { instanceId, chatJid: inChats(chatJid) },
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

  async forgetChat(instanceId: string, chatJid: string | string[]): Promise<void> {
    await this.prisma.networkMessage.deleteMany({ where: { instanceId, chatJid: inChats(chatJid) } });
  }

  async forgetAll(instanceId: string): Promise<void> {
    await this.prisma.networkMessage.deleteMany({ where: { instanceId } });
  }
}

function inChats(chatJid: string | string[]): { in: string[] } {
  return { in: typeof chatJid === 'string' ? [chatJid] : chatJid };
}
