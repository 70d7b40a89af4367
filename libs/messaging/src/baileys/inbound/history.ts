import { normalise, type MessageInput } from '../../events/normalise';
import type { BaileysEvents, WAMessage } from '../baileys-library';
import { mapChatList } from './chats';
import { contactFact, personOf } from './contacts';
import type { InboundBatch } from './inbound-batch';
import { readMessage } from './read-message';
import { toNumber } from './timestamps';

/** Messages that only change another message: history shows their effect, not them. */
const NOT_IN_HISTORY = new Set(['reaction', 'pinInChat']);

/**
 * `messaging-history.set`: the phone's chats, contacts and messages. Contacts and chats become facts; messages are
 * stored (retries, quotes, chat ranges) and reported as `message_history_sync`, one event per chat, oldest first.
 * History is a snapshot, so its messages are reported even when met live before. Whether the instance wants history
 * is the session's call (`BaileysSession.forward` drops these events when not); the facts and the stored messages
 * serve it either way.
 */
export async function mapHistory(batch: InboundBatch, history: BaileysEvents['messaging-history.set']): Promise<void> {
  const facts = history.contacts.flatMap((contact) => {
    const party = personOf(batch, contact);
    return party ? [contactFact(party, contact)] : [];
  });
  batch.learnContacts(facts);
  mapChatList(batch, history.chats);

  const inputs: MessageInput[] = [];
  for (const message of chronological(history.messages)) {
    if (!message.key?.id || !message.key.remoteJid || !message.message || message.messageStubType) continue;
    const read = await readMessage(batch, message);
    if (read.kind === 'ignored' && !read.keep) continue;
    batch.ledger.keep(message);
    if (read.kind === 'message' && !NOT_IN_HISTORY.has(read.input.content.type)) inputs.push(read.input);
  }
  await batch.ledger.flush();
  for (const event of normalise.messageHistorySync(inputs)) batch.event(event);
}

/** Baileys lists history newest first; a stable sort keeps the phone's order within a second. */
function chronological(messages: WAMessage[]): WAMessage[] {
  return messages
    .map((message, index) => ({ message, index, at: toNumber(message.messageTimestamp) ?? 0 }))
    .sort((a, b) => a.at - b.at || b.index - a.index)
    .map(({ message }) => message);
}
