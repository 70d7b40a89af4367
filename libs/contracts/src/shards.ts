/** Where a worker's claim on shard n lives: `<workerId>:<fencing token>`, with a PX expiry. */
export function shardLeaseKey(prefix: string, shard: number): string {
  return `${prefix}:shards:lease:${shard}`;
}

/** Sorted set of live workers; each member's score is the Redis time (ms) at which its membership lapses. */
export function shardMembersKey(prefix: string): string {
  return `${prefix}:shards:members`;
}
