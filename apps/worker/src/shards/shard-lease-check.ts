import { Injectable } from '@nestjs/common';

/** What the check needs of the shard leases (`ShardOwnership`). */
export interface LeaseHolder {
  holds(shard: number): boolean;
}

/**
 * Whether this worker may act for a shard right now: it holds the shard's lease and has not begun handing it over.
 * The shard coordinator keeps it current; sessions (fencing their network writes), the send dispatcher and the command
 * router ask it before they act. Until the coordinator has started its leases, no shard is held.
 */
@Injectable()
export class ShardLeaseCheck {
  private leases: LeaseHolder | undefined;
  private readonly handingOver = new Set<number>();

  holds(shard: number): boolean {
    return !this.handingOver.has(shard) && (this.leases?.holds(shard) ?? false);
  }

  /** The leases to follow (the coordinator's, once it has created them). */
  follow(leases: LeaseHolder): void {
    this.leases = leases;
  }

  /** The shard's handover has begun: its lease is still held, but no new send or command may start on it. */
  beginHandover(shard: number): void {
    this.handingOver.add(shard);
  }

  /** The shard was acquired (again): any earlier handover of it is over. */
  acquired(shard: number): void {
    this.handingOver.delete(shard);
  }
}
