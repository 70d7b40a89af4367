import type { InteractiveTextFallback } from '@app/config';
import type { OutboundMessage } from '@app/contracts';
import type { SentMessage } from '../../driver';
import type { BaileysContext } from '../baileys-context';
import { interactiveMessage, interactiveNodes } from './interactive-message';
import { keepSent } from './network-store';
import { ownMessage } from './own-message';
import { fallbackMessageId, fallbackText } from './text-fallback';

/** `awaited`: the send waits for this stanza's ack (the message's own id); a fallback copy's refusal is reported as it comes. */
async function sendText(context: BaileysContext, chatJid: string, text: string, messageId: string, awaited: boolean) {
  context.sent?.add(messageId);
  if (awaited) context.acks?.expect(messageId, chatJid);
  const sent = await context.socket.sendMessage(chatJid, { text, linkPreview: null }, { messageId });
  if (sent) await keepSent(context, sent);
  return sent;
}

/**
 * Buttons and lists. `sendMessage` cannot send them (it drops buttons, refuses `interactiveMessage`), so the message
 * is generated and relayed with the nodes that make clients render it. Rendering is best effort, so depending on
 * configuration a plain-text copy follows (`after`) or goes out alone (`instead`, the event then shows that text).
 */
export async function sendInteractive(
  context: BaileysContext,
  message: OutboundMessage<'buttons' | 'list'>,
  fallback: InteractiveTextFallback,
): Promise<SentMessage> {
  if (fallback === 'instead') {
    const sent = await sendText(context, message.chatJid, fallbackText(message), message.id, true);
    return sent ? { ownMessage: ownMessage(context, sent) } : {};
  }
  const now = new Date();
  const generated = context.lib.generateWAMessageFromContent(
    message.chatJid,
    { interactiveMessage: interactiveMessage(message) },
    // As sendMessage does: the account's device JID is the participant of our group messages.
    { userJid: context.socket.user?.id ?? context.selfJid, messageId: message.id, timestamp: now },
  );
  context.sent?.add(message.id);
  context.acks?.expect(message.id, message.chatJid);
  await context.socket.relayMessage(message.chatJid, generated.message ?? {}, {
    messageId: message.id,
    additionalNodes: interactiveNodes(message.chatJid, now, message.payload.aiLabel === true),
  });
  await keepSent(context, generated);
  if (fallback === 'after') {
    await sendText(context, message.chatJid, fallbackText(message), fallbackMessageId(message.id), false);
  }
  return { ownMessage: ownMessage(context, generated) };
}
