import type { EventEnvelope, EventSinkSettings } from '@app/contracts';

/** How far a publish got: the first `published` events were taken by the broker, in order; `error` says why it stopped. */
export interface PublishResult {
  published: number;
  error: string | null;
}

/** What a connection tells its owner. */
export interface BrokerConnectionHooks {
  /** The broker answers again after a failure: deliveries waiting out a backoff for it may go now. */
  recovered(): void;
}

/**
 * One connection to one broker (one URL), shared by every instance whose sink names that URL: the adapter of a broker
 * kind. `publish` sends the events in the order given and resolves once the broker has taken them (publisher confirms,
 * JetStream acks), or at the first one it did not take; it never throws. SQS or Kafka would be one more implementation,
 * registered in `sink-connections.ts`.
 */
export interface BrokerConnection {
  publish(settings: EventSinkSettings, events: readonly EventEnvelope[]): Promise<PublishResult>;
  close(): Promise<void>;
}

/** The body every sink receives: the envelope, exactly as the webhook's body. */
export function sinkBody(envelope: EventEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** How many of the settled publishes, from the first, succeeded; and the first failure's message. */
export function leadingSuccesses(settled: PromiseSettledResult<unknown>[]): PublishResult {
  const failedAt = settled.findIndex((result) => result.status === 'rejected');
  if (failedAt === -1) return { published: settled.length, error: null };
  return { published: failedAt, error: describe((settled[failedAt] as PromiseRejectedResult).reason) };
}

export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 300);
}

/** Rejects after `ms` unless `promise` settled first. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Retries `attempt` with growing delays until it succeeds or `stopped()`: how a connection that failed finds out that its
 * broker is back, so the deliveries waiting for it need not wait out their retry schedule.
 */
export function probeUntilUp(attempt: () => Promise<void>, stopped: () => boolean, onUp: () => void): void {
  let delay = 250;
  const next = () => {
    if (stopped()) return;
    const timer = setTimeout(() => {
      attempt().then(
        () => {
          if (!stopped()) onUp();
        },
        () => {
          delay = Math.min(delay * 2, 5_000);
          next();
        },
      );
    }, delay);
    timer.unref();
  };
  next();
}
