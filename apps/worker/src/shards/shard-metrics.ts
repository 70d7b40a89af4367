import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from '@app/observability';
import type { ShardLeaseStore, ShardLossReason } from './shard-ownership';

const LOSS_REASONS: ShardLossReason[] = ['rebalance', 'expired', 'stopping', 'fenced'];

/** Shards this worker owns, its failed lease renewals and the shards it lost, by reason. */
@Injectable()
export class ShardMetrics {
  private readonly renewalFailures: Counter;
  private readonly losses: Counter<'reason'>;
  private owned: () => number = () => 0;

  constructor(metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    this.renewalFailures = new Counter({
      name: 'worker_shard_lease_renewal_failures_total',
      help: 'Lease renewals of this worker that PostgreSQL did not answer (every lease lapses if they keep failing)',
      registers,
    });
    this.losses = new Counter({
      name: 'worker_shard_losses_total',
      help: 'Shards this worker gave up or lost, by reason: rebalance, stopping (voluntary), expired (no renewal in time), fenced',
      labelNames: ['reason'] as const,
      registers,
    });
    for (const reason of LOSS_REASONS) this.losses.inc({ reason }, 0);
    const owned = () => this.owned();
    new Gauge({
      name: 'worker_shards_owned',
      help: 'Shards whose lease this worker holds',
      registers,
      collect() {
        this.set(owned());
      },
    });
  }

  /** Where the owned shards are counted from (the coordinator, once its ownership runs). */
  countOwned(owned: () => number): void {
    this.owned = owned;
  }

  lost(reason: ShardLossReason): void {
    this.losses.inc({ reason });
  }

  /** `store` with its failed renewals counted. */
  observed(store: ShardLeaseStore): ShardLeaseStore {
    return {
      renew: (...args) =>
        store.renew(...args).catch((error: unknown) => {
          this.renewalFailures.inc();
          throw error;
        }),
      liveWorkers: () => store.liveWorkers(),
      acquire: (...args) => store.acquire(...args),
      release: (...args) => store.release(...args),
      deregister: (workerId) => store.deregister(workerId),
    };
  }
}
