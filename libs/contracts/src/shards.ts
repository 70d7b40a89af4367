/**
 * Sorted set of live workers of builds that kept shard leases in Redis (before the PostgreSQL leases); each member's score
 * is the Redis time (ms) at which its membership lapses. Only read now: a worker refuses to start beside such workers.
 */
export function shardMembersKey(prefix: string): string {
  return `${prefix}:shards:members`;
}
