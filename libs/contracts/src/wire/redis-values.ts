import { z } from 'zod';
import { INSTANCE_STATUSES } from '../instance';
import type { LiveStatus, SendingPause } from '../live-status';
import type { WorkerResumeProgress } from '../worker-progress';
import { wireVersionField } from './decode';

/**
 * Values the worker keeps in Redis for the API to read. Version 2 added `v`; the previous release wrote the same fields
 * without it (`reason` and `token` of LiveStatus were already optional there).
 */
export const REDIS_VALUE_WIRE_VERSION = 2;

export const liveStatusSchema = z.object({
  v: wireVersionField,
  status: z.enum(INSTANCE_STATUSES),
  deviceId: z.string().nullable(),
  updatedAt: z.number(),
  reason: z.string().optional(),
  token: z.number().optional(),
}) satisfies z.ZodType<LiveStatus>;

export const sendingPauseSchema = z.object({
  v: wireVersionField,
  code: z.number(),
  refusals: z.number(),
  probeAt: z.number(),
}) satisfies z.ZodType<SendingPause>;

export const workerResumeProgressSchema = z.object({
  v: wireVersionField,
  pending: z.number(),
  resumed: z.number(),
  total: z.number(),
}) satisfies z.ZodType<WorkerResumeProgress>;
