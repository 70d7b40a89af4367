import { normalise } from '../../events/normalise';
import type { BaileysEvents, WAMessage } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { chatOf, writerOf } from './people';
import { fromMillis, toNumber } from './timestamps';

/**
 * `messages.reaction`: `key` is the message reacted to, `reaction.key` the reaction's own message (whose upsert
 * normally reported it already). A removed reaction has no text and is reported with an empty emoji.
 */
export async function mapReactions(batch: InboundBatch, reactions: BaileysEvents['messages.reaction']): Promise<void> {
  for (const { key: target, reaction } of reactions) {
    const own = reaction.key;
    if (!own?.id || !target.id || !target.remoteJid) continue;
    const key = { ...own, remoteJid: own.remoteJid ?? target.remoteJid };
    if (await batch.ledger.known(key)) continue;
    const sentAtMs = toNumber(reaction.senderTimestampMs);
    const message: WAMessage = {
      key,
      message: { reactionMessage: { key: target, text: reaction.text, senderTimestampMs: reaction.senderTimestampMs } },
      messageTimestamp: sentAtMs ? Math.floor(sentAtMs / 1000) : undefined,
    };
    batch.ledger.keep(message);
    if (key.fromMe && batch.sentByGateway(key.id)) continue;
    batch.event(
      normalise.message({
        id: key.id ?? '',
        time: fromMillis(sentAtMs) ?? new Date(),
        chatId: chatOf(batch, key),
        sender: writerOf(batch, message),
        content: { type: 'reaction', messageId: target.id, emoji: reaction.text ?? '' },
      }),
    );
  }
  await batch.ledger.flush();
}
