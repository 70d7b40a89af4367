import { Injectable } from '@nestjs/common';
import { AppError, jidKind, type CommandArgs } from '@app/contracts';
import { SandboxWorldRepository } from '@app/database';

const KIND = 'link-drop';

/**
 * Chats whose next messages the simulated network takes, but whose acknowledgement never reaches the instance: the
 * link drops right after the message went out, as on the real network when the connection breaks before the server's
 * ack. The recipient gets the message; the send is reported `unconfirmed`, and the recipient's receipt settles it.
 */
@Injectable()
export class SandboxLinkDrops {
  /**
   * Per instance, whether it may have a link drop set: read once per process (commands run in the worker that owns
   * the instance and sends for it), so the sends of instances that never set one cost no query.
   */
  private readonly armed = new Map<string, Promise<boolean>>();

  constructor(private readonly world: SandboxWorldRepository) {}

  /** The link drops after each of the next `times` (default 1) messages to the chat; `times` 0 stops it. */
  async set(instanceId: string, args: CommandArgs<'sandbox.linkDrop'>): Promise<{ id: string }> {
    if (!jidKind(args.chatId)) throw AppError.validation('chatId must be a contact or group');
    const times = args.times ?? 1;
    if (times === 0) await this.world.deleteRecord(instanceId, KIND, args.chatId);
    else {
      await this.world.putRecord(instanceId, KIND, args.chatId, { remaining: times });
      this.armed.set(instanceId, Promise.resolve(true));
    }
    return { id: args.chatId };
  }

  /** Whether the link drops after this message to the chat (using up one drop). */
  async take(instanceId: string, chatJid: string): Promise<boolean> {
    if (!(await this.mayHave(instanceId))) return false;
    const drop = await this.world.record<{ remaining: number }>(instanceId, KIND, chatJid);
    if (!drop) return false;
    if (drop.remaining <= 1) await this.world.deleteRecord(instanceId, KIND, chatJid);
    else await this.world.putRecord(instanceId, KIND, chatJid, { remaining: drop.remaining - 1 });
    return true;
  }

  private mayHave(instanceId: string): Promise<boolean> {
    let armed = this.armed.get(instanceId);
    if (!armed) {
      armed = this.world.records(instanceId, KIND).then((records) => records.length > 0);
      this.armed.set(instanceId, armed);
      armed.catch(() => this.armed.delete(instanceId));
    }
    return armed;
  }
}
