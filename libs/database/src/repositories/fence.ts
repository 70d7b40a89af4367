/**
 * The right to write for a shard: the shard and the fencing token of the lease under which the writer holds it. A fenced
 * statement checks it in the same statement as its write, with `FOR KEY SHARE` on the lease row: a worker taking the
 * shard over (`ShardLeaseRepository.acquire`, `FOR UPDATE`) waits for such writes to commit, and a write that comes
 * after sees the new token and changes nothing. So every write under token t commits before the next owner's lease.
 */
export interface Fence {
  shard: number;
  token: number;
}

/** A fenced write was refused: the lease it carried has passed to another worker (or was released). Nothing was written. */
export class FencedOutError extends Error {
  constructor(readonly fence: Fence) {
    super(`shard ${fence.shard}: fencing token ${fence.token} no longer holds the lease; the write was refused`);
    this.name = 'FencedOutError';
  }
}

/**
 * SQL that is true when `shardExpr`/`tokenExpr` name a current lease (tokens are unique over all deployments), locking the lease row `FOR KEY SHARE` so an
 * acquire cannot pass it before this statement's transaction ends. Its parameters are the caller's, e.g. `$2`, `$3`.
 */
export function fenceHolds(shardExpr: string, tokenExpr: string): string {
  return `EXISTS (SELECT 1 FROM shard_leases fence_l WHERE fence_l.token = ${tokenExpr} AND fence_l.shard = ${shardExpr} FOR KEY SHARE)`;
}
