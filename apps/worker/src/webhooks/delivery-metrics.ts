import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '@app/observability';

/** What one attempt came to, as a bounded label: its HTTP class or why no answer came. */
export type DeliveryClass =
  'delivered' | 'gone' | 'http_3xx' | 'http_4xx' | 'http_5xx' | 'timeout' | 'refused_address' | 'too_large' | 'network_error' | 'skipped';

/**
 * Classifies an attempt from its status code (null: no answer) and the error the outbound client gave. The client's
 * errors carry no code, so the texts it writes (libs/security outbound-http.ts) are matched here, in one place.
 */
export function deliveryClass(statusCode: number | null, error: string | null, skipped = false): DeliveryClass {
  if (skipped) return 'skipped';
  if (statusCode !== null) {
    if (statusCode >= 200 && statusCode < 300) return 'delivered';
    if (statusCode === 410) return 'gone';
    if (statusCode < 400) return 'http_3xx';
    return statusCode < 500 ? 'http_4xx' : 'http_5xx';
  }
  const text = error ?? '';
  if (/^no answer (from \S+ )?within \d+ ms/.test(text)) return 'timeout';
  if (/(is not|does not resolve to) a public address|only http and https URLs are allowed/.test(text)) return 'refused_address';
  if (/^content is .*bytes/.test(text)) return 'too_large';
  return 'network_error';
}

/** Webhook attempts by outcome class, and event→receiver latency of the deliveries that succeeded. */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly eventToReceiver: Histogram;

  constructor(metrics: MetricsRegistry) {
    this.attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook attempts by outcome: delivered, gone (410), http_3xx/4xx/5xx, timeout, refused_address (SSRF guard), too_large, network_error, skipped',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    this.eventToReceiver = new Histogram({
      name: 'webhook_event_to_receiver_seconds',
      help: "From an event's receivedAt to the receiver's 2xx answer (retries included)",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers: [metrics.registry],
    });
    for (const outcome of ['delivered', 'http_4xx', 'http_5xx', 'timeout', 'network_error'] satisfies DeliveryClass[])
      this.attempts.inc({ outcome }, 0);
  }

  attempted(outcome: DeliveryClass, receivedAt: string): void {
    this.attempts.inc({ outcome });
    if (outcome === 'delivered') this.eventToReceiver.observe(Math.max(0, (Date.now() - Date.parse(receivedAt)) / 1000));
  }
}
