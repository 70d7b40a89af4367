import type { NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import type { BaileysLibrary, WAMessage, WAMessageKey } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import { fromSeconds } from './timestamps';

/** Rows per insert: well under PostgreSQL's bind-parameter limit for a history sync of thousands of messages. */
const SAVE_CHUNK = 500;

/**
 * The instance's recent network messages as one batch sees them: what the store already holds plus what the batch
 * met so far. A message met before (a `notify` followed by its `append`, the gateway's own send) is known, and every
 * message is kept for retries, quotes and chat ranges. Relies on the session handing batches over one at a time.
 */
export class MessageLedger {
  private readonly met = new Map<string, NetworkMessageRecord>();
  private pending: NetworkMessageRecord[] = [];

  constructor(
    private readonly repository: NetworkMessageRepository,
    private readonly instanceId: string,
    private readonly lib: BaileysLibrary,
  ) {}

  async known(key: WAMessageKey): Promise<boolean> {
    return key.id ? (await this.find(key.id, chatsOf(key))) !== undefined : false;
  }

  /** A message by id in one of the given chats (the chat's JID in either form). */
  async find(id: string, chats: (string | null | undefined)[]): Promise<NetworkMessageRecord | undefined> {
    const candidates = chats.filter((chat): chat is string => !!chat);
    for (const chat of candidates) {
      const met = this.met.get(`${chat}|${id}`);
      if (met) return met;
    }
    for (const chat of candidates) {
      const stored = await this.repository.find(this.instanceId, id, chat);
      if (stored) return stored;
    }
    return undefined;
  }

  keep(message: WAMessage): void {
    const key = message.key;
    if (!key.id || !key.remoteJid) return;
    const record: NetworkMessageRecord = {
      id: key.id,
      chatJid: key.remoteJid,
      fromMe: key.fromMe === true,
      senderJid: this.senderJid(message),
      sentAt: fromSeconds(message.messageTimestamp) ?? new Date(),
      data: bufferJson.stringify(message),
    };
    this.met.set(`${record.chatJid}|${record.id}`, record);
    this.pending.push(record);
  }

  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    for (let start = 0; start < pending.length; start += SAVE_CHUNK)
      await this.repository.save(this.instanceId, pending.slice(start, start + SAVE_CHUNK));
  }

  /** The sender in a group or broadcast when it is not this account (the repository's `senderJid`). */
  private senderJid(message: WAMessage): string | null {
    const key = message.key;
    if (key.fromMe || !(this.lib.isJidGroup(key.remoteJid ?? '') || this.lib.isJidBroadcast(key.remoteJid ?? ''))) return null;
    return key.participant ?? message.participant ?? null;
  }
}

function chatsOf(key: WAMessageKey): (string | null | undefined)[] {
  return [key.remoteJid, key.remoteJidAlt];
}
