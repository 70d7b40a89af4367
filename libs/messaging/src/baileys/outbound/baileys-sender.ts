import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { isMessageAction, jidKind, PermanentSendError, refusedByNetwork, type OutboundMessage } from '@app/contracts';
import type { SentMessage } from '../../driver';
import type { BaileysContext, BaileysSenderPort } from '../baileys-context';
import { prepareMessage } from './message-content';
import { performOperation } from './message-operations';
import { keepSent } from './network-store';
import { ownMessage } from './own-message';
import { classifySendError } from './send-errors';
import { sendInteractive } from './interactive-send';
import { ACK_WAIT_MS } from './server-acks';

/** Why a written stanza is not known to be taken, as the `message_status` unconfirmed event says. */
const UNCONFIRMED: Record<'closed' | 'timeout', string> = {
  closed: 'the link closed before the network acknowledged the message',
  timeout: `the network did not acknowledge the message within ${ACK_WAIT_MS / 1000} s`,
};

/** Sends one accepted message, or one operation on a message, over an open Baileys socket. */
@Injectable()
export class BaileysSender implements BaileysSenderPort {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'interactiveTextFallback'>) {}

  async send(context: BaileysContext, message: OutboundMessage): Promise<SentMessage> {
    // Baileys fails on a malformed JID with a TypeError, which would otherwise look transient.
    if (!jidKind(message.chatJid)) throw new PermanentSendError(`${message.chatJid} is not a chat the network knows`);
    let sent: SentMessage;
    try {
      sent = await this.dispatch(context, message);
    } catch (error) {
      throw classifySendError(error);
    }
    // The stanza is written; whether the network took it is its ack's to say (operations without a stanza have none).
    const ack = (await context.acks?.outcome(message.id)) ?? { outcome: 'taken' };
    if (ack.outcome === 'refused') throw refusedByNetwork(ack.code);
    if (ack.outcome === 'unconfirmed') return { ...sent, unconfirmed: UNCONFIRMED[ack.why] };
    return sent;
  }

  private async dispatch(context: BaileysContext, message: OutboundMessage): Promise<SentMessage> {
    if (isMessageAction(message)) {
      await performOperation(context, message);
      return {};
    }
    if (message.kind === 'buttons' || message.kind === 'list') {
      return sendInteractive(context, message, this.config.interactiveTextFallback);
    }
    const { content, options } = await prepareMessage(context, message);
    context.sent?.add(message.id);
    context.acks?.expect(message.id, message.chatJid);
    const sent = await context.socket.sendMessage(message.chatJid, content, options);
    if (!sent) return {};
    await keepSent(context, sent);
    return { ownMessage: ownMessage(context, sent) };
  }
}
