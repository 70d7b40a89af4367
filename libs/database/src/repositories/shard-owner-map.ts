import { Injectable } from '@nestjs/common';
import { ShardLeaseRepository } from './shard-lease.repository';

/** How long a read of the owners serves lookups: ownership changes only on joins, leaves and failovers. */
const FRESH_FOR_MS = 1_000;
/** A caller that found the map wrong (a worker answered "not mine") re-reads it, but not more often than this. */
const REREAD_AT_MOST_EVERY_MS = 100;

interface Snapshot {
  owners: Map<number, string>;
  readAt: number;
}

/**
 * Which worker owns which shard, as the lease table said a moment ago: how the API (and a worker passing a doorbell on)
 * addresses a shard's owner now that queues and command channels belong to workers, not shards. It may be stale by up
 * to `FRESH_FOR_MS`; that is safe because the receiving worker checks its own lease and answers "not mine" (commands)
 * or passes the doorbell on, and the caller then asks again with `{ reread: true }`. Reads are shared: concurrent
 * lookups wait for one query.
 */
@Injectable()
export class ShardOwnerMap {
  private snapshot: Snapshot | undefined;
  private reading: Promise<Snapshot> | undefined;

  constructor(private readonly leases: ShardLeaseRepository) {}

  /** The worker holding `shard`'s lease, or undefined while nobody does (a takeover in progress, no worker running). */
  async ownerOf(shard: number, options: { reread?: boolean } = {}): Promise<string | undefined> {
    const maxAge = options.reread ? REREAD_AT_MOST_EVERY_MS : FRESH_FOR_MS;
    const snapshot = this.snapshot && performance.now() - this.snapshot.readAt < maxAge ? this.snapshot : await this.read();
    return snapshot.owners.get(shard);
  }

  private read(): Promise<Snapshot> {
    this.reading ??= (async () => {
      try {
        const readAt = performance.now();
        this.snapshot = { owners: await this.leases.owners(), readAt };
        return this.snapshot;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
