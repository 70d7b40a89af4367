const JITTER = 0.15;
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export type AttemptVerdict = { kind: 'delivered' } | { kind: 'gone' } | { kind: 'retry'; delayMs: number } | { kind: 'exhausted' };

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/**
 * What follows an attempt (docs/decisions.md, Webhook delivery): any 2xx delivers; 410 stops the URL; anything else
 * (redirects included) retries after the schedule's next delay ±15 %, or after `Retry-After` on 429/503, until the
 * schedule runs out. `step` is the number of retries already used in this round.
 */
export function verdict(
  statusCode: number | null,
  retryAfter: number | undefined,
  step: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): AttemptVerdict {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 410) return { kind: 'gone' };
  if (step >= schedule.length) return { kind: 'exhausted' };
  if ((statusCode === 429 || statusCode === 503) && retryAfter !== undefined) return { kind: 'retry', delayMs: retryAfter };
  const base = schedule[step] * 1000;
  return { kind: 'retry', delayMs: Math.round(base * (1 - JITTER + 2 * JITTER * random())) };
}
