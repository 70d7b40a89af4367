/**
 * The job queues: one send queue per shard, consumed only by the shard's owner. A job is a doorbell
 * ("instance X has accepted messages"); the messages themselves live in PostgreSQL. The webhook queue's job is one
 * delivery attempt (see `WEBHOOK_QUEUE`). Consumers take every job of their queue: the names label jobs for operators.
 */
export const JOB_NAMES = { send: 'message.send', deliver: 'webhook.deliver' } as const;

export interface SendJob {
  instanceId: string;
  messageId: string;
}

/**
 * Each queue's name is a Redis Cluster hash tag, so all of one queue's keys (`<QUEUE_PREFIX>:{send-3}:wait`, ...:active,
 * its Lua scripts touch several) share a slot, and the send queues spread over the cluster, one slot per shard. On a
 * single node the braces are just characters. Jobs under the names before the tags (`send-3`, `webhooks`) are not read
 * after an upgrade; nothing is lost: a send job only rings a doorbell for messages PostgreSQL holds (the owner drains each
 * instance when its session opens), and the webhook reconciler re-queues deliveries whose job went missing.
 */
export function sendQueueName(shard: number): string {
  return `{send-${shard}}`;
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
