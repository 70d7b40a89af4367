import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { INSTANCE_STATUSES, type InstanceStatus } from '@app/contracts';
import { MetricsRegistry } from '@app/observability';
import { InstanceSessions } from './instance-sessions';

/** A session that dropped this many times within the window is flapping. */
export const FLAP_DISCONNECTS = 3;
export const FLAP_WINDOW_MS = 10 * 60_000;

/**
 * Counts, per instance, the recent drops of its link (transitions to `disconnected`), so a flapping session shows as
 * one number without a label per instance.
 */
export class FlapCounter {
  private readonly drops = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  dropped(instanceId: string): void {
    const recent = this.recent(instanceId);
    recent.push(this.now());
    this.drops.set(instanceId, recent);
  }

  /** Instances with at least FLAP_DISCONNECTS drops in the last FLAP_WINDOW_MS; forgets older drops. */
  flapping(): number {
    let count = 0;
    for (const instanceId of [...this.drops.keys()]) {
      const recent = this.recent(instanceId);
      if (recent.length === 0) this.drops.delete(instanceId);
      else this.drops.set(instanceId, recent);
      if (recent.length >= FLAP_DISCONNECTS) count += 1;
    }
    return count;
  }

  private recent(instanceId: string): number[] {
    const since = this.now() - FLAP_WINDOW_MS;
    return (this.drops.get(instanceId) ?? []).filter((at) => at > since);
  }
}

/** This worker's sessions by status, their status transitions, and how many of them flap. */
@Injectable()
export class SessionMetrics {
  constructor(metrics: MetricsRegistry, sessions: InstanceSessions) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'worker_sessions',
      help: 'Sessions this worker holds, by status (connecting, connected, disconnected, pairing, ...)',
      labelNames: ['status'] as const,
      registers,
      collect() {
        const counts = sessions.statusCounts();
        for (const status of INSTANCE_STATUSES) this.set({ status }, counts.get(status) ?? 0);
      },
    });
    const transitions = new Counter({
      name: 'worker_session_transitions_total',
      help: "Status transitions of this worker's sessions, by the status entered",
      labelNames: ['status'] as const,
      registers,
    });
    const flaps = new FlapCounter();
    new Gauge({
      name: 'worker_sessions_flapping',
      help: `Sessions of this worker whose link dropped ${FLAP_DISCONNECTS} times or more in the last ${FLAP_WINDOW_MS / 60_000} minutes`,
      registers,
      collect() {
        this.set(flaps.flapping());
      },
    });
    sessions.onTransition((instanceId: string, status: InstanceStatus) => {
      transitions.inc({ status });
      if (status === 'disconnected') flaps.dropped(instanceId);
    });
  }
}
