import type { ResumeProgress } from './sessions/resume-pacer';

/**
 * Why a started worker is not yet serving its share: sessions of the shards it holds still wait for their turn to open.
 * Undefined once every one of them has opened (also when it holds no shard: another worker serves them, and this one is
 * ready to take its share at the next rebalance).
 */
export function resumeNotDone(progress: ResumeProgress): string | undefined {
  if (progress.pending === 0) return undefined;
  return `not ready: resuming sessions (${progress.resumed} of ${progress.total} open)`;
}
