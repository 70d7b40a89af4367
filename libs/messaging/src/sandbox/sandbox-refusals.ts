import { Injectable } from '@nestjs/common';
import { AppError, jidKind, type CommandArgs, type RefusalCode } from '@app/contracts';
import { SandboxWorldRepository } from '@app/database';

const KIND = 'refusal';

interface Refusal {
  code: RefusalCode;
  /** Sends still refused; absent: every send until cleared. */
  remaining?: number;
}

/**
 * Chats whose messages the simulated network refuses as the real one does with an error ack (463 restricted
 * account, 479 invalid stanza, 421): the send fails with the same code and reason as on the real network, and
 * repeated 463/479 pause the instance's sends the same way (the worker's breaker sits above both networks).
 */
@Injectable()
export class SandboxRefusals {
  constructor(private readonly world: SandboxWorldRepository) {}

  /** The network starts (or with code null stops) refusing the instance's messages to a chat. */
  async set(instanceId: string, args: CommandArgs<'sandbox.refusal'>): Promise<{ id: string }> {
    if (!jidKind(args.chatId)) throw AppError.validation('chatId must be a contact or group');
    if (args.code === null) await this.world.deleteRecord(instanceId, KIND, args.chatId);
    else {
      const refusal: Refusal = { code: args.code, ...(args.times === undefined ? {} : { remaining: args.times }) };
      await this.world.putRecord(instanceId, KIND, args.chatId, refusal);
    }
    return { id: args.chatId };
  }

  /** The refusal code for a message to this chat now, used up by the send it refuses; undefined when it is taken. */
  async take(instanceId: string, chatJid: string): Promise<RefusalCode | undefined> {
    const refusal = await this.world.record<Refusal>(instanceId, KIND, chatJid);
    if (!refusal) return undefined;
    if (refusal.remaining !== undefined) {
      if (refusal.remaining <= 1) await this.world.deleteRecord(instanceId, KIND, chatJid);
      else await this.world.putRecord(instanceId, KIND, chatJid, { ...refusal, remaining: refusal.remaining - 1 });
    }
    return refusal.code;
  }
}
