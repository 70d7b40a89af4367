/** A worker's resume progress, as it publishes it for the operator overview (see `workerResumeKey`). */
export interface WorkerResumeProgress {
  /** Sessions of acquired shards still waiting for their turn to open. */
  pending: number;
  /** Sessions opened in the takeover in progress (or the last one). */
  resumed: number;
  /** pending + resumed. */
  total: number;
}

/** Where a worker keeps its resume progress: a JSON `WorkerResumeProgress` with a PX expiry it keeps renewing. */
export function workerResumeKey(prefix: string, workerId: string): string {
  return `${prefix}:workers:${workerId}:resume`;
}
