import { RecentIds } from '../inbound/recent-ids';

/**
 * How long a send waits for the server's ack of its stanza. The server acks every message stanza, usually within a
 * round trip; one that never comes (the link dropped) leaves the send counted as sent, as before acks were awaited.
 */
export const ACK_WAIT_MS = 10_000;

interface Waiter {
  done: Promise<number | undefined>;
  settle: (code: number | undefined) => void;
  timer: NodeJS.Timeout;
}

/**
 * The server's acks of our message stanzas (`<ack class="message" id=.. error=..>`), so a send learns whether the
 * network took its message or refused it. Baileys' `sendMessage` resolves once the stanza is written and reports an
 * error ack only later, as a `messages.update` with status ERROR (rc14 `handleBadAck`), by which time the send had
 * been counted as sent. One per session: acks are matched by message id, whatever socket carried them.
 */
export class ServerAcks {
  private readonly waiting = new Map<string, Waiter>();
  /** Waiters settled before the send asked for the outcome; each is read once, and the oldest go beyond 1,000. */
  private readonly settled = new Map<string, Waiter>();
  /** Refusals a send reported itself: Baileys' own ERROR update for them must not report them a second time. */
  private readonly reported = new RecentIds(1_000);

  constructor(private readonly waitMs = ACK_WAIT_MS) {}

  /** Before a stanza goes out: its ack is awaited from now on (until `waitMs` passes). */
  expect(id: string): void {
    if (this.waiting.has(id)) return;
    let settle: (code: number | undefined) => void = () => undefined;
    const done = new Promise<number | undefined>((resolve) => (settle = resolve));
    const timer = setTimeout(() => this.settle(id, undefined), this.waitMs);
    timer.unref();
    this.waiting.set(id, { done, settle, timer });
  }

  /**
   * The refusal code of the stanza's ack, or undefined when the server took it (or no ack came in time). The ack often
   * arrives before `sendMessage` has returned, so a waiter settled already still answers, once.
   */
  async outcome(id: string): Promise<number | undefined> {
    const waiter = this.waiting.get(id) ?? this.settled.get(id);
    this.settled.delete(id);
    return waiter?.done;
  }

  /** An ack from the socket (`CB:ack,class:message`): `error` is the refusal code, absent when the server took it. */
  received(attrs: { id?: string; error?: string }): void {
    if (!attrs.id || !this.waiting.has(attrs.id)) return;
    const code = attrs.error ? Number(attrs.error) : undefined;
    if (code !== undefined && Number.isFinite(code)) this.reported.add(attrs.id);
    this.settle(attrs.id, code !== undefined && Number.isFinite(code) ? code : undefined);
  }

  /** Whether the send of this message reports (or will report) its refusal, so the ERROR update is not reported again. */
  reportedBySend(id: string): boolean {
    return this.waiting.has(id) || this.reported.has(id);
  }

  /** The socket closed: acks still awaited will not come on it. */
  socketClosed(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined);
  }

  private settle(id: string, code: number | undefined): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiting.delete(id);
    this.settled.set(id, waiter);
    if (this.settled.size > 1_000) this.settled.delete(this.settled.keys().next().value as string);
    waiter.settle(code);
  }
}
