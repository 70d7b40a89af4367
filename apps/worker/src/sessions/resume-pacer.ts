/** An instance waiting for this worker to open its session after the worker acquired its shard. */
export interface ResumeItem {
  instanceId: string;
  shard: number;
  /** When the instance last connected (ms since the epoch; null when unknown): the oldest goes first. */
  lastConnectedAt: number | null;
  /** Opens the session; a failure is the opener's to report (it is logged here and the pacer goes on). */
  open: () => Promise<void>;
}

/** The resume wave in progress: `resumed` of `total` opened, `pending` still waiting (pending + resumed = total). */
export interface ResumeProgress {
  pending: number;
  resumed: number;
  total: number;
}

export interface ResumePacerOptions {
  /** Session opens a second, on average and at most (plus one) in any window. */
  ratePerSecond: number;
  random?: () => number;
  /** Told of every open the pacer starts (for metrics). */
  onResumed?: () => void;
  onError?: (instanceId: string, error: Error) => void;
}

interface Queued extends ResumeItem {
  order: number;
  sequence: number;
}

/**
 * Opens the sessions of the instances a worker takes over at a bounded rate, oldest-connected first, over every shard
 * the worker acquires: a worker that takes 2,000 instances from a dead one must not start 2,000 network handshakes
 * and credential loads at once. Time is cut into slots of 1/rate seconds and one open starts at a random point of
 * each slot: opens do not come in lockstep, the long-run rate is exactly the configured one, and any window of T
 * seconds holds at most rate × T + 1 of them. A slot is never made up for later, so a stalled event loop causes no
 * burst. Sends for an instance still waiting stay in its queue (durable rows) until its session opens.
 */
export class ResumePacer {
  private readonly intervalMs: number;
  private readonly random: () => number;
  /** Min-heap on (order, sequence); cancelled entries are dropped lazily when they reach the top. */
  private readonly heap: Queued[] = [];
  /** What is still waiting, by instance: an entry of the heap missing here was cancelled. */
  private readonly waiting = new Map<string, Queued>();
  private sequence = 0;
  private nextSlotAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private resumed = 0;
  private total = 0;

  constructor(private readonly options: ResumePacerOptions) {
    if (!(options.ratePerSecond > 0)) throw new Error('the resume rate must be above 0');
    this.intervalMs = 1000 / options.ratePerSecond;
    this.random = options.random ?? Math.random;
  }

  /** Queues instances to open; one already waiting keeps its place. A new wave starts when nothing was waiting. */
  enqueue(items: ResumeItem[]): void {
    if (this.waiting.size === 0) this.resumed = this.total = 0;
    for (const item of items) {
      if (this.waiting.has(item.instanceId)) continue;
      const queued: Queued = {
        ...item,
        order: item.lastConnectedAt ?? Number.MAX_SAFE_INTEGER,
        sequence: (this.sequence += 1),
      };
      this.waiting.set(item.instanceId, queued);
      this.push(queued);
      this.total += 1;
    }
    this.schedule();
  }

  /** Drops one instance's pending open (it was opened another way, or is no longer this worker's). */
  cancel(instanceId: string): boolean {
    if (!this.waiting.delete(instanceId)) return false;
    this.total -= 1;
    this.idleIfEmpty();
    return true;
  }

  /** Drops every pending open of a shard this worker lost, at once; answers how many there were. */
  cancelShard(shard: number): number {
    let cancelled = 0;
    for (const [instanceId, queued] of this.waiting)
      if (queued.shard === shard) {
        this.waiting.delete(instanceId);
        cancelled += 1;
      }
    this.total -= cancelled;
    this.idleIfEmpty();
    return cancelled;
  }

  cancelAll(): void {
    this.total -= this.waiting.size;
    this.waiting.clear();
    this.idleIfEmpty();
  }

  isWaiting(instanceId: string): boolean {
    return this.waiting.has(instanceId);
  }

  progress(): ResumeProgress {
    return { pending: this.waiting.size, resumed: this.resumed, total: this.total };
  }

  private schedule(): void {
    if (this.timer || this.waiting.size === 0) return;
    const now = Date.now();
    // An idle or late pacer starts its next slot now: slots missed are not made up with a burst.
    if (this.nextSlotAt < now) this.nextSlotAt = now;
    const at = this.nextSlotAt + this.random() * this.intervalMs;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - now));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    // An open that fires late (a busy event loop) takes the slot that starts when it fires, so the next one cannot
    // follow it at once.
    const now = Date.now();
    const slotEnd = this.nextSlotAt + this.intervalMs;
    this.nextSlotAt = now < slotEnd ? slotEnd : now + this.intervalMs;
    const next = this.popWaiting();
    if (next) {
      this.waiting.delete(next.instanceId);
      this.resumed += 1;
      this.options.onResumed?.();
      void next.open().catch((error: Error) => this.options.onError?.(next.instanceId, error));
    }
    this.schedule();
  }

  private idleIfEmpty(): void {
    if (this.waiting.size > 0) return;
    this.heap.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private popWaiting(): Queued | undefined {
    while (this.heap.length > 0) {
      const top = this.pop();
      if (this.waiting.get(top.instanceId) === top) return top;
    }
    return undefined;
  }

  private before(a: Queued, b: Queued): boolean {
    return a.order < b.order || (a.order === b.order && a.sequence < b.sequence);
  }

  private push(item: Queued): void {
    const heap = this.heap;
    heap.push(item);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(heap[index], heap[parent])) break;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  private pop(): Queued {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as Queued;
    if (heap.length > 0) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && this.before(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && this.before(heap[right], heap[smallest])) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest], heap[index]];
        index = smallest;
      }
    }
    return top;
  }
}
