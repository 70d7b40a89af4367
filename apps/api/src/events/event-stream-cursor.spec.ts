import type { EventType } from '@app/contracts';
import type { StoredEvent } from '@app/database';
import { EventStreamCursor, KEEP_ALIVE_FRAME, eventFrame, type FrameWriter, type PageReader } from './event-stream-cursor';

function event(seq: number, eventType: EventType = 'message', eventData: Record<string, unknown> = { n: seq }): StoredEvent {
  return {
    seq: BigInt(seq),
    envelope: { eventId: `evt_${seq}`, instanceId: 'ins_a', eventType, receivedAt: '2026-01-01T00:00:00.000Z', eventData },
  };
}

/** An in-memory log whose reads can be held back, to interleave wake-ups with reads in flight. */
class FakeLog {
  readonly events: StoredEvent[] = [];
  readonly reads: [number, number][] = [];
  private held: (() => void)[] | undefined;

  append(...seqs: number[]): void {
    this.events.push(...seqs.map((seq) => event(seq)));
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    held.forEach((resume) => resume());
  }

  readonly read: PageReader = async (afterSeq, limit) => {
    this.reads.push([Number(afterSeq), limit]);
    if (this.held) await new Promise<void>((resolve) => this.held?.push(resolve));
    // What the log holds when the read executes, as a database would answer.
    return this.events.filter((e) => e.seq > afterSeq).slice(0, limit);
  };
}

function recorder(): { frames: string[]; ids: () => number[]; write: FrameWriter } {
  const frames: string[] = [];
  return {
    frames,
    ids: () => frames.map((frame) => Number(/^id: (\d+)\n/.exec(frame)?.[1])),
    write: (frame) => {
      frames.push(frame);
      return Promise.resolve(true);
    },
  };
}

const noErrors = (error: unknown) => {
  throw error;
};

describe('eventFrame', () => {
  it('is an id line, one data line with the envelope, and a blank line', () => {
    const stored = event(7, 'message', { text: 'two\nlines\r\nand more' });
    const frame = eventFrame(stored);
    expect(frame).toBe(`id: 7\ndata: ${JSON.stringify(stored.envelope)}\n\n`);
    expect(frame.split('\n')).toHaveLength(4);
    expect(JSON.parse(frame.split('\n')[1].slice('data: '.length))).toEqual(stored.envelope);
  });

  it('keeps the keep-alive a comment line', () => {
    expect(KEEP_ALIVE_FRAME).toBe(': keep-alive\n\n');
  });
});

describe('EventStreamCursor', () => {
  it('sends the events after its starting point, in order, page by page', async () => {
    const log = new FakeLog();
    log.append(...Array.from({ length: 25 }, (_, i) => i + 1));
    const out = recorder();
    const cursor = new EventStreamCursor(3n, log.read, out.write, 10, noErrors);
    await cursor.wake();
    expect(out.ids()).toEqual(Array.from({ length: 22 }, (_, i) => i + 4));
    expect(log.reads).toEqual([
      [3, 10],
      [13, 10],
      [23, 10],
    ]);
    expect(cursor.position).toBe(25n);
  });

  it('ignores a wake-up for an event it has already sent', async () => {
    const log = new FakeLog();
    log.append(1, 2);
    const out = recorder();
    const cursor = new EventStreamCursor(0n, log.read, out.write, 10, noErrors);
    await cursor.wake(2n);
    await cursor.wake(1n);
    await cursor.wake(2n);
    expect(out.ids()).toEqual([1, 2]);
    expect(log.reads).toHaveLength(1);
  });

  it('sends each event once, in order, when announcements arrive out of order and in bursts during a read', async () => {
    const log = new FakeLog();
    log.append(1, 2);
    const out = recorder();
    const cursor = new EventStreamCursor(0n, log.read, out.write, 3, noErrors);
    log.hold();
    const first = cursor.wake(2n);
    // While the first read is in flight, more events commit and their announcements arrive shuffled and repeated.
    log.append(3, 4, 5, 6, 7);
    const burst = [7n, 3n, 5n, 4n, 6n, 3n, 7n].map((seq) => cursor.wake(seq));
    log.release();
    await Promise.all([first, ...burst]);
    expect(out.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // One read in flight at a time, each from the last event sent: the burst cost one extra read, not one per announcement.
    expect(log.reads).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
      [7, 3],
    ]);
  });

  it('does not lose a wake-up that arrives after its read returned but before the frames are out', async () => {
    const log = new FakeLog();
    log.append(1);
    const frames: string[] = [];
    let releaseWrite: (() => void) | undefined;
    const write: FrameWriter = (frame) => {
      frames.push(frame);
      return new Promise((resolve) => (releaseWrite = () => resolve(true)));
    };
    const cursor = new EventStreamCursor(0n, log.read, write, 10, noErrors);
    const done = cursor.wake(1n);
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toHaveLength(1);
    log.append(2);
    void cursor.wake(2n);
    releaseWrite?.();
    await new Promise((resolve) => setImmediate(resolve));
    releaseWrite?.();
    await done;
    expect(frames.map((frame) => frame.slice(0, 5))).toEqual(['id: 1', 'id: 2']);
  });

  it('waits for the writer before the next frame (backpressure)', async () => {
    const log = new FakeLog();
    log.append(1, 2, 3);
    const frames: string[] = [];
    const pending: (() => void)[] = [];
    const write: FrameWriter = (frame) => {
      frames.push(frame);
      return new Promise((resolve) => pending.push(() => resolve(true)));
    };
    const cursor = new EventStreamCursor(0n, log.read, write, 10, noErrors);
    const done = cursor.wake();
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toHaveLength(1);
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toHaveLength(2);
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    pending.shift()?.();
    await done;
    expect(frames).toHaveLength(3);
  });

  it('stops for good when the client has gone', async () => {
    const log = new FakeLog();
    log.append(1, 2, 3);
    const frames: string[] = [];
    const cursor = new EventStreamCursor(0n, log.read, (frame) => Promise.resolve(frames.push(frame) < 2), 10, noErrors);
    await cursor.wake();
    expect(frames).toHaveLength(2);
    expect(cursor.isStopped).toBe(true);
    log.append(4);
    await cursor.wake(4n);
    expect(frames).toHaveLength(2);
    expect(log.reads).toHaveLength(1);
  });

  it('sends nothing from a read that completes after stop()', async () => {
    const log = new FakeLog();
    log.append(1);
    const out = recorder();
    const cursor = new EventStreamCursor(0n, log.read, out.write, 10, noErrors);
    log.hold();
    const done = cursor.wake();
    cursor.stop();
    log.release();
    await done;
    expect(out.frames).toEqual([]);
  });

  it('reports a failed read and resumes from the same place on the next wake-up', async () => {
    const log = new FakeLog();
    log.append(1, 2);
    const out = recorder();
    const errors: unknown[] = [];
    let failures = 1;
    const read: PageReader = (afterSeq, limit) => (failures-- > 0 ? Promise.reject(new Error('database down')) : log.read(afterSeq, limit));
    const cursor = new EventStreamCursor(0n, read, out.write, 10, (error) => errors.push(error));
    await cursor.wake(2n);
    expect(errors).toEqual([new Error('database down')]);
    expect(out.frames).toEqual([]);
    await cursor.wake(2n);
    expect(out.ids()).toEqual([1, 2]);
  });

  it('never goes backwards, even if a reader returns events it already sent', async () => {
    const out = recorder();
    const stale: PageReader = () => Promise.resolve([event(2), event(1), event(3), event(3)]);
    const cursor = new EventStreamCursor(1n, stale, out.write, 10, noErrors);
    await cursor.wake();
    expect(out.ids()).toEqual([2, 3]);
  });

  it('announces events pruned under it as an event: gap before going on (sequences are contiguous, so a jump is a loss)', async () => {
    const log = new FakeLog();
    log.append(1, 2, 6, 7);
    const out = recorder();
    const cursor = new EventStreamCursor(1n, log.read, out.write, 10, noErrors);
    await cursor.wake();
    expect(out.frames[1]).toBe('id: 5\nevent: gap\ndata: {"firstMissing":3,"oldestKept":6}\n\n');
    expect(out.ids()).toEqual([2, 5, 6, 7]);
  });

  it('gives up on a full page that brings nothing new instead of spinning', async () => {
    const out = recorder();
    let reads = 0;
    const stuck: PageReader = () => {
      reads += 1;
      return Promise.resolve([event(1), event(2)]);
    };
    const cursor = new EventStreamCursor(5n, stuck, out.write, 2, noErrors);
    await cursor.wake();
    expect(out.frames).toEqual([]);
    expect(reads).toBe(1);
  });

  describe('behind an announcement (a lagging read replica)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('reads again shortly until the announced event is readable, then reads no more', async () => {
      const log = new FakeLog();
      log.append(1);
      const out = recorder();
      const cursor = new EventStreamCursor(0n, log.read, out.write, 10, noErrors);
      await cursor.wake(3n);
      expect(out.ids()).toEqual([1]);
      await jest.advanceTimersByTimeAsync(50 + 100);
      expect(log.reads.map(([after]) => after)).toEqual([0, 1, 1]);
      log.append(2, 3);
      await jest.advanceTimersByTimeAsync(200);
      expect(out.ids()).toEqual([1, 2, 3]);
      await jest.advanceTimersByTimeAsync(60_000);
      expect(log.reads.map(([after]) => after)).toEqual([0, 1, 1, 1]);
      cursor.stop();
    });

    it('gives up after about 13 s on an announcement the log never shows, leaving it to the safety poll', async () => {
      const log = new FakeLog();
      const out = recorder();
      const cursor = new EventStreamCursor(0n, log.read, out.write, 10, noErrors);
      await cursor.wake(9n);
      await jest.advanceTimersByTimeAsync(120_000);
      expect(log.reads).toHaveLength(1 + 8);
      expect(out.frames).toEqual([]);
      // A later wake-up is served as usual.
      log.append(1);
      await cursor.wake(1n);
      expect(out.ids()).toEqual([1]);
      await jest.advanceTimersByTimeAsync(120_000);
      expect(log.reads).toHaveLength(1 + 8 + 1);
    });

    it('retries nothing after stop()', async () => {
      const log = new FakeLog();
      const cursor = new EventStreamCursor(0n, log.read, recorder().write, 10, noErrors);
      await cursor.wake(4n);
      cursor.stop();
      await jest.advanceTimersByTimeAsync(120_000);
      expect(log.reads).toHaveLength(1);
    });
  });
});
