import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ChatStoreRepository } from '@app/database';

interface Touch {
  instanceId: string;
  jid: string;
  isGroup: boolean;
  at: Date;
}

/**
 * How long a noted activity waits for more of its chat's before it is written. A drain sends one message every few
 * milliseconds, so without the wait every send cost its own upsert and commit (one of the four PostgreSQL commits a
 * send made); with it, a chat's burst is one write a second. The store's last activity may lag as long.
 */
export const CHAT_ACTIVITY_COALESCE_MS = 1_000;

/**
 * Last-activity updates for the chats this instance sends to, written behind the send drain: a burst of sends to
 * one chat becomes one write, and no send waits for it. (The store keeps the latest time, so order does not matter.)
 */
@Injectable()
export class ChatActivity implements OnModuleDestroy {
  private readonly logger = new Logger(ChatActivity.name);
  private readonly pending = new Map<string, Touch>();
  private flushing: Promise<void> | undefined;
  private due: NodeJS.Timeout | undefined;

  constructor(private readonly chats: ChatStoreRepository) {}

  note(instanceId: string, jid: string, isGroup: boolean, at: Date): void {
    const key = `${instanceId}\u0000${jid}`;
    const known = this.pending.get(key);
    if (!known || known.at < at) this.pending.set(key, { instanceId, jid, isGroup, at });
    this.due ??= setTimeout(() => {
      this.due = undefined;
      void this.startFlush();
    }, CHAT_ACTIVITY_COALESCE_MS).unref();
  }

  /** Writes everything noted so far now, without waiting out the coalescing window; resolves once it is written. */
  async idle(): Promise<void> {
    clearTimeout(this.due);
    this.due = undefined;
    while (this.pending.size > 0 || this.flushing) await this.startFlush();
  }

  onModuleDestroy(): Promise<void> {
    return this.idle();
  }

  private startFlush(): Promise<void> {
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    return this.flushing;
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
