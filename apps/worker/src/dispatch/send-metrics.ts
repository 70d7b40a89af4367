import { Injectable } from '@nestjs/common';
import { Histogram } from 'prom-client';
import { MetricsRegistry } from '@app/observability';

/** Accept→network latency of this worker's sends. */
@Injectable()
export class SendMetrics {
  private readonly acceptToNetwork: Histogram;

  constructor(metrics: MetricsRegistry) {
    this.acceptToNetwork = new Histogram({
      name: 'message_accept_to_network_seconds',
      help: 'From a message accepted by the API to the network taking it (sent), as this worker measured it',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers: [metrics.registry],
    });
  }

  /** The network took a message accepted at `acceptedAt` (clock skew between API and worker hosts included). */
  sent(acceptedAt: Date): void {
    this.acceptToNetwork.observe(Math.max(0, (Date.now() - acceptedAt.getTime()) / 1000));
  }
}
