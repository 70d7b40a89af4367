import type { NetworkMessageRecord } from '@app/database';
import type { WAMessage } from '../baileys-library';
import { bufferJson } from '../buffer-json';

/**
 * The one test kit of the Baileys driver's specs: the pieces every fake needs the same way (a Boom error, the kept
 * network messages in memory). The fake sockets of each side build on it; the e2e tier has the protocol-level fake
 * network in `test/support/protocol-network/`.
 */

/**
 * An error as `@hapi/boom` builds it, as Baileys throws and closes sockets with: the status code in `output` (the
 * disconnect code of a close; 500 for an IQ error, whose network code is in `data`). Takes the code, or options.
 */
export function boom(message: string, codeOrOptions: number | { statusCode?: number; data?: unknown } = {}, data?: unknown): Error {
  const options = typeof codeOrOptions === 'number' ? { statusCode: codeOrOptions, data } : codeOrOptions;
  const statusCode = options.statusCode ?? 500;
  return Object.assign(new Error(message), {
    isBoom: true,
    isServer: statusCode >= 500,
    data: options.data ?? null,
    output: { statusCode, payload: { statusCode, error: 'Error', message }, headers: {} },
  });
}

type Kept = NetworkMessageRecord & { instanceId: string };

const inChats = (record: NetworkMessageRecord, chatJid: string | string[]) => [chatJid].flat().includes(record.chatJid);

/**
 * The kept network messages in memory, answering as `NetworkMessageRepository` does: the first copy of a message (by
 * instance, chat and id) wins; lookups take one chat id or several (a person's phone-number and LID chats).
 */
export class MemoryNetworkMessages {
  private records: Kept[] = [];
  /** Chats whose messages were forgotten, in order. */
  readonly forgotten: string[] = [];

  constructor(records: NetworkMessageRecord[] = [], instanceId = '') {
    this.records = records.map((record) => ({ ...record, instanceId }));
  }

  save(instanceId: string, messages: NetworkMessageRecord[]): Promise<void> {
    for (const message of messages) {
      const kept = this.records.some(
        (record) => record.instanceId === instanceId && record.chatJid === message.chatJid && record.id === message.id,
      );
      if (!kept) this.records.push({ ...message, instanceId });
    }
    return Promise.resolve();
  }

  find(instanceId: string, id: string, chatJid?: string | string[]): Promise<NetworkMessageRecord | null> {
    const found = this.records.find(
      (record) =>
        (record.instanceId === instanceId || record.instanceId === '') && record.id === id && (!chatJid || inChats(record, chatJid)),
    );
    return Promise.resolve(found ? strip(found) : null);
  }

  latest(_instanceId: string, chatJid: string | string[], limit: number): Promise<NetworkMessageRecord[]> {
    return Promise.resolve(
      this.records
        .filter((record) => inChats(record, chatJid))
        .sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime())
        .slice(0, limit)
        .map(strip),
    );
  }

  forgetChat(_instanceId: string, chatJid: string | string[]): Promise<void> {
    this.forgotten.push(...[chatJid].flat());
    this.records = this.records.filter((record) => !inChats(record, chatJid));
    return Promise.resolve();
  }

  /** Keeps a message as inbound mapping does: Baileys JSON, with the sender of a group message. */
  keep(message: WAMessage, instanceId = ''): void {
    this.records.push({
      instanceId,
      id: message.key.id as string,
      chatJid: message.key.remoteJid as string,
      fromMe: message.key.fromMe === true,
      senderJid: message.key.fromMe ? null : (message.key.participant ?? null),
      sentAt: new Date(Number(message.messageTimestamp) * 1000),
      data: bufferJson.stringify(message),
    });
  }

  /** The kept messages as Baileys JSON parsed back, in the order they were kept. */
  saved(): WAMessage[] {
    return this.records.map((record) => bufferJson.parse<WAMessage>(record.data));
  }

  ids(): string[] {
    return this.records.map((record) => record.id);
  }
}

function strip({ instanceId: _instance, ...record }: Kept): NetworkMessageRecord {
  return record;
}
