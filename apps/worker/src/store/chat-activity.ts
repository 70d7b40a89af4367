import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ChatStoreRepository } from '@app/database';

interface Touch {
  instanceId: string;
  jid: string;
  isGroup: boolean;
  at: Date;
}

/**
 * How often at most one chat's last activity is written. The first activity of a chat not written within the window
 * is written at once (a chat we just sent to appears in the store as soon as before); more within the window wait
 * for its end and go as one write. A drain sends one message every few milliseconds, so without the window every
 * send cost its own upsert and commit (one of the four PostgreSQL commits a send made).
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
  /** When each chat was last written, for the chats written within the window. */
  private readonly written = new Map<string, number>();

  constructor(private readonly chats: ChatStoreRepository) {}

  note(instanceId: string, jid: string, isGroup: boolean, at: Date): void {
    const key = `${instanceId}\u0000${jid}`;
    const known = this.pending.get(key);
    if (!known || known.at < at) this.pending.set(key, { instanceId, jid, isGroup, at });
    const wait = (this.written.get(key) ?? -Infinity) + CHAT_ACTIVITY_COALESCE_MS - Date.now();
    if (wait <= 0) {
      void this.startFlush();
      return;
    }
    this.due ??= setTimeout(() => {
      this.due = undefined;
      void this.startFlush();
    }, wait).unref();
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
      const batch = [...this.pending.entries()];
      this.pending.clear();
      const now = Date.now();
      for (const [key, writtenAt] of this.written) if (now - writtenAt >= CHAT_ACTIVITY_COALESCE_MS) this.written.delete(key);
      for (const [key, touch] of batch) {
        this.written.set(key, Date.now());
        await this.chats
          .touch(touch.instanceId, touch.jid, touch.isGroup, touch.at)
          .catch((error: Error) => this.logger.error(`${touch.instanceId}: last activity of ${touch.jid} not stored: ${error.message}`));
      }
    }
  }
}
