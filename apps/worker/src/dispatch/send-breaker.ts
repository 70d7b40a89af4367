import type { SendRefusalBreakerConfig } from '@app/config';

/**
 * Error-ack codes that say the account itself is being refused (Baileys rc14 `SERVER_ERROR_CODES`): 463, no privacy
 * token, the account restricted from reaching out; 479, stanzas rejected as invalid. Sending on into them is what
 * deepens a restriction (rc14 `handleBadAck`: "retrying counts as another reach out"; WhiskeySockets/Baileys#2441,
 * #2707), so they pause the instance's sends. Other refusals fail their message only.
 */
export const RESTRICTION_CODES: ReadonlySet<number> = new Set([463, 479]);

export type BreakerState =
  { state: 'closed' } | { state: 'open'; code: number; until: number; refusals: number } | { state: 'half-open'; code: number };

/** What a recorded outcome changed: the instance's sends paused (`opened`) or resumed (`closed`). */
export type BreakerChange = { change: 'opened'; code: number; refusals: number; until: number } | { change: 'closed' } | undefined;

interface Instance {
  refusals: number[];
  state: BreakerState;
  /** Cool-downs in a row whose probe was refused again: each doubles the next, up to 16 times the configured one. */
  strikes: number;
}

/**
 * A circuit breaker per instance over its sends' refusals. Closed: sends go out; `refusals` restriction refusals
 * within `windowSeconds` open it. Open: no send goes out until the cool-down ends (queued messages stay accepted, in
 * order). Half-open: one send goes out as a probe; taken, the breaker closes; refused again, it opens for twice as long.
 */
export class SendBreaker {
  private readonly instances = new Map<string, Instance>();

  constructor(
    private readonly config: SendRefusalBreakerConfig,
    private readonly now: () => number = Date.now,
    /** Every error-ack refusal, whatever its code (for metrics). */
    private readonly onRefusal: (code: number) => void = () => undefined,
  ) {}

  /** Instances whose sends are paused or waiting for their probe's outcome. */
  paused(): number {
    return [...this.instances.values()].filter((instance) => instance.state.state !== 'closed').length;
  }

  /** Whether the next send may go out now; when not, the time it may. */
  permit(instanceId: string): { allowed: true } | { allowed: false; until: number } {
    const instance = this.instances.get(instanceId);
    if (!instance || instance.state.state !== 'open') return { allowed: true };
    if (this.now() < instance.state.until) return { allowed: false, until: instance.state.until };
    instance.state = { state: 'half-open', code: instance.state.code };
    return { allowed: true };
  }

  state(instanceId: string): BreakerState {
    return this.instances.get(instanceId)?.state ?? { state: 'closed' };
  }

  /**
   * The network took a send. Only a probe's success closes the breaker: a restricted account still reaches the chats
   * it already has (463 refuses new chats only), so successes in between do not clear the refusals of the window.
   */
  taken(instanceId: string): BreakerChange {
    const instance = this.instances.get(instanceId);
    if (instance?.state.state !== 'half-open') return undefined;
    this.instances.delete(instanceId);
    return { change: 'closed' };
  }

  /** The network refused a send with an error ack's `code`. */
  refused(instanceId: string, code: number): BreakerChange {
    this.onRefusal(code);
    if (!RESTRICTION_CODES.has(code)) return undefined;
    const now = this.now();
    const instance = this.instances.get(instanceId) ?? { refusals: [], state: { state: 'closed' }, strikes: 0 };
    this.instances.set(instanceId, instance);
    instance.refusals = [...instance.refusals.filter((time) => now - time < this.config.windowSeconds * 1000), now];
    const probeRefused = instance.state.state === 'half-open';
    if (!probeRefused && instance.refusals.length < this.config.refusals) return undefined;
    if (probeRefused) instance.strikes = Math.min(instance.strikes + 1, 4);
    const until = now + this.config.coolDownSeconds * 1000 * 2 ** instance.strikes;
    instance.state = { state: 'open', code, until, refusals: instance.refusals.length };
    return { change: 'opened', code, refusals: instance.refusals.length, until };
  }

  /** The instance's session is gone from this worker (logged out, moved): its history goes with it. */
  forget(instanceId: string): void {
    this.instances.delete(instanceId);
  }
}
