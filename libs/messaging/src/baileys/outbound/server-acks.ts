import { RecentIds } from '../inbound/recent-ids';

/**
 * How long a send waits for the server's ack of its stanza. The server acks every message stanza, usually within a
 * round trip; one that never comes (the link dropped) leaves the send `unconfirmed`: the stanza was written, and
 * whether the network has it is not known.
 */
export const ACK_WAIT_MS = 10_000;

/**
 * What the server said about a stanza: `taken` (an ack without error), `refused` (an error ack, with its code), or
 * `unconfirmed` (no ack: the socket closed first, or the wait ran out). An unconfirmed stanza is never sent again by
 * the gateway; a later ack or receipt settles it.
 */
export type AckOutcome =
  { outcome: 'taken' } | { outcome: 'refused'; code: number } | { outcome: 'unconfirmed'; why: 'closed' | 'timeout' };

interface Waiter {
  chatJid: string;
  done: Promise<AckOutcome>;
  settle: (outcome: AckOutcome) => void;
  timer: NodeJS.Timeout;
}

const TAKEN: AckOutcome = { outcome: 'taken' };

/**
 * The server's acks of our message stanzas (`<ack class="message" id=.. error=..>`), so a send learns whether the
 * network took its message or refused it. Baileys' `sendMessage` resolves once the stanza is written and reports an
 * error ack only later, as a `messages.update` with status ERROR (rc14 `handleBadAck`), by which time the send had
 * been counted. One per session: acks are matched by message id, whatever socket carried them.
 *
 * The server does not ack an old stanza again after a reconnect, so most unconfirmed sends are settled by the
 * recipient's receipt; an ack that does come after the wait (a slow server, not a dropped link) is handed to `lateAck`.
 */
export class ServerAcks {
  private readonly waiting = new Map<string, Waiter>();
  /** Waiters settled before the send asked for the outcome; each is read once, and the oldest go beyond 1,000. */
  private readonly settled = new Map<string, Waiter>();
  /** Refusals a send reported itself: Baileys' own ERROR update for them must not report them a second time. */
  private readonly reported = new RecentIds(1_000);
  /** Stanzas (by id, with their chat) whose wait ended without an ack: an ack for one later is a late confirmation. */
  private readonly unacked = new Map<string, string>();

  constructor(
    private readonly waitMs = ACK_WAIT_MS,
    /** A stanza the send reported unconfirmed was acked after all (without error). */
    private readonly lateAck: (id: string, chatJid: string) => void = () => undefined,
  ) {}

  /** Before a stanza goes out: its ack is awaited from now on (until `waitMs` passes). */
  expect(id: string, chatJid: string): void {
    if (this.waiting.has(id)) return;
    this.unacked.delete(id);
    let settle: (outcome: AckOutcome) => void = () => undefined;
    const done = new Promise<AckOutcome>((resolve) => (settle = resolve));
    const timer = setTimeout(() => this.settle(id, { outcome: 'unconfirmed', why: 'timeout' }), this.waitMs);
    timer.unref();
    this.waiting.set(id, { chatJid, done, settle, timer });
  }

  /** Whether this session knows the stanza's ack: awaited now, or settled and not read yet. */
  knows(id: string): boolean {
    return this.waiting.has(id) || this.settled.has(id);
  }

  /**
   * What the server said about the stanza. The ack often arrives before `sendMessage` has returned, so a waiter settled
   * already still answers, once. A stanza nobody waited for (an operation without one) counts as taken.
   */
  async outcome(id: string): Promise<AckOutcome> {
    const waiter = this.waiting.get(id) ?? this.settled.get(id);
    this.settled.delete(id);
    return waiter ? waiter.done : TAKEN;
  }

  /** An ack from the socket (`CB:ack,class:message`): `error` is the refusal code, absent when the server took it. */
  received(attrs: { id?: string; error?: string }): void {
    const id = attrs.id;
    if (!id) return;
    const code = attrs.error ? Number(attrs.error) : undefined;
    const refused = code !== undefined && Number.isFinite(code);
    if (!this.waiting.has(id)) {
      // A late refusal is Baileys' to report (its ERROR update); a late ack without error confirms the send.
      const chatJid = this.unacked.get(id);
      if (!refused && chatJid !== undefined) {
        this.unacked.delete(id);
        this.lateAck(id, chatJid);
      }
      return;
    }
    if (refused) this.reported.add(id);
    this.settle(id, refused ? { outcome: 'refused', code } : TAKEN);
  }

  /** Whether the send of this message reports (or will report) its refusal, so the ERROR update is not reported again. */
  reportedBySend(id: string): boolean {
    return this.waiting.has(id) || this.reported.has(id);
  }

  /** The socket closed: acks still awaited will not come on it. */
  socketClosed(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, { outcome: 'unconfirmed', why: 'closed' });
  }

  private settle(id: string, outcome: AckOutcome): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiting.delete(id);
    if (outcome.outcome === 'unconfirmed') {
      this.unacked.set(id, waiter.chatJid);
      if (this.unacked.size > 1_000) this.unacked.delete(this.unacked.keys().next().value as string);
    }
    this.settled.set(id, waiter);
    if (this.settled.size > 1_000) this.settled.delete(this.settled.keys().next().value as string);
    waiter.settle(outcome);
  }
}
