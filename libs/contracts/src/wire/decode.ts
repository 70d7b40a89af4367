import { z } from 'zod';

/**
 * Every shape that crosses a process boundary carries `v`. The previous release (04332bd) wrote none: a missing `v` is
 * version 1, and each reader accepts it and the current version. A newer version is refused by name, so an older
 * process next to a newer one during a rolling deploy says so instead of misreading the shape.
 */
export const PREVIOUS_WIRE_VERSION = 1;

/** The boundaries a decode failure is counted by (`gateway_decode_failures_total{boundary}`). */
export type WireBoundary =
  | 'command_request'
  | 'command_reply'
  | 'send_job'
  | 'webhook_job'
  | 'stored_send'
  | 'live_status'
  | 'sending_pause'
  | 'worker_progress'
  | 'group_store'
  | 'sink_settings';

/** Why a value was refused: `unknownVersion` when it came from a newer writer, otherwise the fields that are wrong. */
export class WireDecodeError extends Error {
  constructor(
    readonly boundary: WireBoundary,
    readonly reason: string,
    readonly unknownVersion?: number,
  ) {
    super(`${boundary}: ${reason}`);
    this.name = 'WireDecodeError';
  }
}

type FailureListener = (boundary: WireBoundary) => void;
const listeners = new Set<FailureListener>();

/** The metrics registry of a process counts decode failures through this (contracts carries no metrics library). */
export function onDecodeFailure(listener: FailureListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function failed(error: WireDecodeError): WireDecodeError {
  for (const listener of listeners) listener(error.boundary);
  return error;
}

/** A refusal a reader decides itself (an unknown command or kind): counted like a schema's. */
export function refused(boundary: WireBoundary, reason: string): WireDecodeError {
  return failed(new WireDecodeError(boundary, reason));
}

/**
 * The fields a schema refused, by path and zod's message: never the values themselves, so a log line or an error reply
 * carries no message bodies or secrets.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The version a value says it was written in: absent → the previous release. */
export function wireVersionOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = (value as { v?: unknown }).v;
  if (v === undefined) return PREVIOUS_WIRE_VERSION;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined;
}

/**
 * Decodes `value` with `schema` after checking its version against `current`. Throws WireDecodeError (and counts it)
 * for a newer version, a malformed `v`, or a shape the schema refuses.
 */
export function decodeWire<S extends z.ZodType>(boundary: WireBoundary, schema: S, current: number, value: unknown): z.output<S> {
  checkWireVersion(boundary, current, value);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw failed(new WireDecodeError(boundary, describeIssues(parsed.error)));
  return parsed.data;
}

/** Decodes a value that carries no version of its own (a command's result: its reply envelope has the version). */
export function decodeShape<S extends z.ZodType>(boundary: WireBoundary, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw failed(new WireDecodeError(boundary, describeIssues(parsed.error)));
  return parsed.data;
}

/** Throws (and counts) unless `value` is an object of a version up to `current`; answers its version. */
export function checkWireVersion(boundary: WireBoundary, current: number, value: unknown): number {
  const version = wireVersionOf(value);
  if (version === undefined) {
    throw failed(new WireDecodeError(boundary, typeof value === 'object' && value !== null ? 'v: not a version number' : 'not an object'));
  }
  if (version > current) {
    throw failed(new WireDecodeError(boundary, `version ${version} is newer than this process understands (${current})`, version));
  }
  return version;
}

/** `decodeWire` of a JSON text; text that is not JSON is a decode failure too. */
export function decodeWireJson<S extends z.ZodType>(boundary: WireBoundary, schema: S, current: number, text: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw failed(new WireDecodeError(boundary, 'not JSON'));
  }
  return decodeWire(boundary, schema, current, value);
}

/** `v` as a schema field: absent (the previous release) or a version up to the current one (checked before parsing). */
export const wireVersionField = z.number().int().min(1).optional();

/**
 * `decodeWireJson` for a value a reader can do without (a cached copy with a source of truth behind it): undefined
 * when it does not decode, after `warn` was told why (and the failure counted).
 */
export function decodeWireJsonOr<S extends z.ZodType>(
  boundary: WireBoundary,
  schema: S,
  current: number,
  text: string,
  warn: (reason: string) => void,
): z.output<S> | undefined {
  try {
    return decodeWireJson(boundary, schema, current, text);
  } catch (error) {
    if (!(error instanceof WireDecodeError)) throw error;
    warn(error.reason);
    return undefined;
  }
}
