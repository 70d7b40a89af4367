/**
 * The job queues: one send queue per worker, consumed only by that worker. A job is a doorbell ("instance X has accepted
 * messages"); the messages themselves live in PostgreSQL, so a doorbell that reaches no owner loses nothing (the owner drains
 * each instance when its session opens, and its reconciler finds rows left waiting). The webhook queue's job is one delivery
 * attempt (see `WEBHOOK_QUEUE`). Consumers take every job of their queue: the names label jobs for operators.
 */
export const JOB_NAMES = { send: 'message.send', deliver: 'webhook.deliver' } as const;

export interface SendJob {
  instanceId: string;
  messageId: string;
  /** Set when a worker passed the doorbell on to the owner it found: a doorbell is re-routed at most once. */
  rerouted?: true;
}

/**
 * The send queue of one worker (`workerId` as in `shard_workers`). Addressed to the worker, not the shard, so the number of
 * shards costs no queues: a worker owning 400 of 4,096 shards consumes one queue. The name is a Redis Cluster hash tag, so
 * all of one queue's keys (`<QUEUE_PREFIX>:{send-w-...}:wait`, ...:active; its Lua scripts touch several) share a slot and
 * the workers' queues spread over the cluster. On a single node the braces are just characters.
 */
export function workerSendQueueName(workerId: string): string {
  return `{send-w-${workerId}}`;
}

export const SEND_JOB_OPTIONS = {
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * One webhook queue for all instances, consumed by every worker. A job is one attempt of one event's delivery;
 * the delivery's state lives in PostgreSQL (webhook_deliveries), so a lost job is found again by the reconciler.
 */
export const WEBHOOK_QUEUE = '{webhooks}';

export interface WebhookJob {
  eventId: string;
  /** Attempts already made when this job was scheduled: a job that no longer matches the row is stale and skipped. */
  attempts: number;
}

export function webhookJobId(eventId: string, attempts: number): string {
  return `${eventId}.${attempts}`;
}

/** The record is in PostgreSQL; finished jobs are dropped so a redelivery can reuse the id. */
export const WEBHOOK_JOB_OPTIONS = { removeOnComplete: true, removeOnFail: true } as const;

/** Invalidation topic: an instance's event routing (effective settings) changed; `*` means every instance. */
export const EVENT_ROUTING_TOPIC = 'event-routing';

/**
 * Invalidation topic: the proxy an instance's settings name may have changed. The message is an instance id, or
 * `customer:<id>` for every instance of a customer (its defaults changed); the owning worker reconnects exactly the
 * sessions whose proxy is no longer the one they use.
 */
export const NETWORK_PROXY_TOPIC = 'network-proxy';
