import { Injectable } from '@nestjs/common';
import type { Fence } from '@app/database';

/** What the check needs of the shard leases (`ShardOwnership`). */
export interface LeaseHolder {
  holds(shard: number): boolean;
  fencingToken(shard: number): number | undefined;
  /** PostgreSQL refused a write fenced with this token: the lease is gone, stop acting for the shard at once. */
  lose(shard: number, token: number): void;
}

/**
 * Whether this worker may act for a shard right now: it holds the shard's lease and has not begun handing it over, and
 * under which fencing token. The shard coordinator keeps it current; sessions (fencing their network writes), the send
 * dispatcher and the command router ask it before they act, and pass `fence()` to every write the next owner relies on,
 * which PostgreSQL checks in the same statement. Until the coordinator has started its leases, no shard is held.
 */
@Injectable()
export class ShardLeaseCheck {
  private leases: LeaseHolder | undefined;
  private readonly handingOver = new Set<number>();

  holds(shard: number): boolean {
    return !this.handingOver.has(shard) && (this.leases?.holds(shard) ?? false);
  }

  /** The shard and the token of its lease while this worker holds it (and is not handing it over); undefined otherwise. */
  fence(shard: number): Fence | undefined {
    if (!this.holds(shard)) return undefined;
    const token = this.leases?.fencingToken(shard);
    return token === undefined ? undefined : { shard, token };
  }

  /** A write fenced with `fence` was refused (FencedOutError): the shard is lost at once (sessions close, drains stop). */
  refused(fence: Fence): void {
    this.leases?.lose(fence.shard, fence.token);
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
