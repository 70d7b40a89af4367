import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { MessageRepository } from '@app/database';
import { SendDispatcher } from './send-dispatcher';

const EVERY_MS = 3_000;
const STALE_AFTER_MS = 3_000;

/**
 * Re-kicks instances of owned shards whose accepted messages were never dispatched: after Redis lost its
 * jobs, a worker died mid-drain, or a link came back. PostgreSQL is the record, so nothing accepted is lost.
 */
@Injectable()
export class SendReconciler implements OnModuleDestroy {
  private readonly logger = new Logger(SendReconciler.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly messages: MessageRepository,
    private readonly dispatcher: SendDispatcher,
  ) {}

  start(ownedShards: () => number[]): void {
    this.timer = setInterval(() => void this.sweep(ownedShards()), EVERY_MS);
    this.timer.unref();
  }

  async sweep(shards: number[]): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const instances = await this.messages.instancesWithStalePending(shards, new Date(Date.now() - STALE_AFTER_MS));
      for (const instanceId of instances) void this.dispatcher.kick(instanceId);
    } catch (error) {
      this.logger.warn(`reconcile failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
