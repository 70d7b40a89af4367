import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ChatStoreRepository } from '@app/database';

interface Touch {
  instanceId: string;
  jid: string;
  isGroup: boolean;
  at: Date;
}

/**
 * Last-activity updates for the chats this instance sends to, written behind the send drain: a burst of sends to
 * one chat becomes one write, and no send waits for it. (The store keeps the latest time, so order does not matter.)
 */
@Injectable()
export class ChatActivity implements OnModuleDestroy {
  private readonly logger = new Logger(ChatActivity.name);
  private readonly pending = new Map<string, Touch>();
  private flushing: Promise<void> | undefined;

  constructor(private readonly chats: ChatStoreRepository) {}

  note(instanceId: string, jid: string, isGroup: boolean, at: Date): void {
    const key = `${instanceId}\u0000${jid}`;
    const known = this.pending.get(key);
    if (!known || known.at < at) this.pending.set(key, { instanceId, jid, isGroup, at });
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
  }

  /** Resolves once everything noted so far is written. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  onModuleDestroy(): Promise<void> {
    return this.idle();
  }

  private async flush(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = [...this.pending.values()];
      this.pending.clear();
      for (const touch of batch) {
        await this.chats
          .touch(touch.instanceId, touch.jid, touch.isGroup, touch.at)
          .catch((error: Error) => this.logger.error(`${touch.instanceId}: last activity of ${touch.jid} not stored: ${error.message}`));
      }
    }
  }
}
