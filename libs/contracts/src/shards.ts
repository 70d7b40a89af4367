/** Where a worker's claim on shard n lives: `<workerId>:<fencing token>`, with a PX expiry. */
/**
 * The prefix of the shard coordination keys. On a Redis Cluster they all share one hash tag, since its scripts and
 * reads touch several at once (lease and token, worker and members, every lease); on one node they stay where they were,
 * so workers of both versions see the same leases during a rolling upgrade.
 */
export function shardKeyPrefix(queuePrefix: string, cluster: boolean): string {
  return cluster ? `${queuePrefix}:{shards}` : queuePrefix;
}

export function shardLeaseKey(prefix: string, shard: number): string {
  return `${prefix}:shards:lease:${shard}`;
}

/** Sorted set of live workers; each member's score is the Redis time (ms) at which its membership lapses. */
export function shardMembersKey(prefix: string): string {
  return `${prefix}:shards:members`;
}
