import type { Provider } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { MetricsRegistry } from '@app/observability';
import { SendBreaker } from './send-breaker';

/** The worker's one breaker over its instances' refused sends (`SEND_REFUSAL_*`), with refusals and pauses on `/metrics`. */
export const sendBreakerProvider: Provider = {
  provide: SendBreaker,
  inject: [APP_CONFIG, MetricsRegistry],
  useFactory: (config: AppConfig, metrics: MetricsRegistry): SendBreaker => {
    const refusals = new Counter({
      name: 'message_send_refusals_total',
      help: 'Sends the network refused with an error ack, by code (463 restricted, 479 invalid stanza, 421, ...)',
      labelNames: ['code'] as const,
      registers: [metrics.registry],
    });
    const breaker = new SendBreaker(config.sendRefusalBreaker, Date.now, (code) => refusals.inc({ code: String(code) }));
    new Gauge({
      name: 'instance_sends_paused',
      help: 'Instances of this worker whose sends are paused (or probing) after repeated 463/479 refusals',
      registers: [metrics.registry],
      collect() {
        this.set(breaker.paused());
      },
    });
    return breaker;
  },
};
