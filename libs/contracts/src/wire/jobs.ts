import { z } from 'zod';
import type { SendJob, WebhookJob } from '../queues';
import { wireVersionField } from './decode';

/** BullMQ job data. Version 2 added `v`; the previous release wrote the same fields without it. */
export const JOB_WIRE_VERSION = 2;

export const sendJobSchema = z.object({
  v: wireVersionField,
  instanceId: z.string().min(1),
  messageId: z.string().min(1),
  rerouted: z.literal(true).optional(),
}) satisfies z.ZodType<SendJob>;

export const webhookJobSchema = z.object({
  v: wireVersionField,
  eventId: z.string().min(1),
  attempts: z.number().int().min(0),
}) satisfies z.ZodType<WebhookJob>;

export function sendJobOut(job: SendJob): SendJob & { v: number } {
  return { ...job, v: JOB_WIRE_VERSION };
}

export function webhookJobOut(job: WebhookJob): WebhookJob & { v: number } {
  return { ...job, v: JOB_WIRE_VERSION };
}
