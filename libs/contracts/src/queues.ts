/**
 * The job queues: one send queue per shard, consumed only by the shard's owner. A job is a doorbell
 * ("instance X has accepted messages"); the messages themselves live in PostgreSQL.
 */
export const JOB_NAMES = { send: 'message.send' } as const;

export interface SendJob {
  instanceId: string;
  messageId: string;
}

export function sendQueueName(shard: number): string {
  return `send-${shard}`;
}

export const SEND_JOB_OPTIONS = {
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;
