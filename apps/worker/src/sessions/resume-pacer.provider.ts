import { Logger, type Provider } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { MetricsRegistry } from '@app/observability';
import { ResumePacer } from './resume-pacer';

/** The worker's one resume pacer, paced by `RESUME_RATE_PER_SECOND`, with its progress on `/metrics`. */
export const resumePacerProvider: Provider = {
  provide: ResumePacer,
  inject: [APP_CONFIG, MetricsRegistry],
  useFactory: (config: AppConfig, metrics: MetricsRegistry): ResumePacer => {
    const logger = new Logger(ResumePacer.name);
    const resumed = new Counter({
      name: 'worker_sessions_resumed_total',
      help: 'Sessions this worker opened after acquiring their shard (paced by RESUME_RATE_PER_SECOND)',
      registers: [metrics.registry],
    });
    const pacer = new ResumePacer({
      ratePerSecond: config.resumeRatePerSecond,
      onResumed: () => resumed.inc(),
      onError: (instanceId, error) => logger.warn(`${instanceId}: not resumed: ${error.message}`),
    });
    new Gauge({
      name: 'worker_sessions_resume_pending',
      help: 'Sessions of acquired shards still waiting for their turn to open',
      registers: [metrics.registry],
      collect() {
        this.set(pacer.progress().pending);
      },
    });
    new Gauge({
      name: 'worker_sessions_resume_wave_total',
      help: 'Sessions in the takeover in progress (or the last one): opened plus still waiting',
      registers: [metrics.registry],
      collect() {
        this.set(pacer.progress().total);
      },
    });
    return pacer;
  },
};
