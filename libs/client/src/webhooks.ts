import { EventDecodeError, parseEventEnvelope } from './envelope.js';
import type { EventEnvelopeDto } from './generated/openapi.js';

/**
 * The gateway signs every delivery twice when the instance has an `eventSigningSecret`:
 * - `standard`: Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), an HMAC-SHA256
 *   of `id.timestamp.body`; the timestamp bounds replays. The default.
 * - `body`: `X-Webhook-Signature: sha256=<hex>`, an HMAC-SHA256 of the raw body, what clients of this API family check;
 *   it has no timestamp, so a captured delivery verifies forever.
 * - `both`: each must verify.
 */
export type WebhookScheme = 'standard' | 'body' | 'both';

/** Request headers as `fetch` (`Headers`) or `node:http` (`IncomingHttpHeaders`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The instance's `eventSigningSecret` (`whsec_<base64>`, or any other string, used as its UTF-8 bytes). */
  secret: string;
  /** The raw body exactly as received: verify before any JSON parsing. */
  body: string | Uint8Array;
  headers: WebhookHeaders;
  /** Default `standard`. */
  scheme?: WebhookScheme;
  /** How far `webhook-timestamp` may be from now, either way; default 300 s. */
  toleranceSeconds?: number;
  /** Now, in milliseconds since the epoch (tests). */
  now?: number;
}

/** A delivery that did not verify: wrong key, altered body, missing or stale headers. Answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const STANDARD_PREFIX = 'whsec_';
/** WebCrypto's key type, named without the DOM library (absent from Node-only type settings). */
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;
const encoder = new TextEncoder();

/**
 * Checks a delivery's signature(s) and returns its event, its envelope checked at run time (`decodeEventEnvelope`). Comparisons are constant-time (WebCrypto's HMAC verify), and
 * this runs wherever WebCrypto does: Node 20+, Deno, Bun, edge workers.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<EventEnvelopeDto> {
  const scheme = options.scheme ?? 'standard';
  // A copy: WebCrypto takes only ArrayBuffer-backed views, and a Buffer may share a pooled one.
  const body = typeof options.body === 'string' ? encoder.encode(options.body) : new Uint8Array(options.body);
  const key = await hmacKey(options.secret);
  if (scheme === 'standard' || scheme === 'both') await verifyStandard(key, body, options);
  if (scheme === 'body' || scheme === 'both') await verifyBodySignature(key, body, options.headers);
  try {
    return parseEventEnvelope(new TextDecoder().decode(body));
  } catch (error) {
    // Signed by the gateway yet not an envelope: answer 4xx like any other delivery that does not check out.
    if (error instanceof EventDecodeError) throw new WebhookVerificationError(error.message);
    throw error;
  }
}

async function verifyStandard(key: HmacKey, body: Uint8Array<ArrayBuffer>, options: VerifyWebhookOptions): Promise<void> {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a Unix time in seconds');
  const toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
  if (Math.abs((options.now ?? Date.now()) - Number(timestamp) * 1000) > toleranceMs) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance: a replay, or a clock far off');
  }
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  // Several space-separated signatures may be present (a key rotation); one matching v1 is enough.
  for (const entry of signatures.split(' ')) {
    const [version, encoded] = entry.split(',', 2);
    const signature = version === 'v1' && encoded ? fromBase64(encoded) : undefined;
    if (signature && (await globalThis.crypto.subtle.verify('HMAC', key, signature, signed))) return;
  }
  throw new WebhookVerificationError('no webhook-signature matches');
}

async function verifyBodySignature(key: HmacKey, body: Uint8Array<ArrayBuffer>, headers: WebhookHeaders): Promise<void> {
  const given = header(headers, 'x-webhook-signature');
  if (!given) throw new WebhookVerificationError('missing X-Webhook-Signature');
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(given)?.[1];
  const signature = hex ? fromHex(hex) : undefined;
  if (!signature || !(await globalThis.crypto.subtle.verify('HMAC', key, signature, body))) {
    throw new WebhookVerificationError('X-Webhook-Signature does not match');
  }
}

/** The gateway's docs/decisions.md: a `whsec_` secret is base64 after the prefix; any other secret is its UTF-8 bytes. */
function hmacKey(secret: string): Promise<HmacKey> {
  const bytes = secret.startsWith(STANDARD_PREFIX) ? fromBase64(secret.slice(STANDARD_PREFIX.length)) : encoder.encode(secret);
  if (!bytes || bytes.length === 0) throw new WebhookVerificationError('the signing secret is empty or not valid base64 after whsec_');
  return globalThis.crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}
