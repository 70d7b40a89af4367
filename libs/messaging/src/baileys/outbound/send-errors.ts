import { PermanentSendError } from '@app/contracts';

/**
 * 4xx codes that still mean "try again": the link dropped (428 connection closed, 408 timed out or lost, 440 replaced)
 * or the server asked us to slow down (429).
 */
const TRANSIENT_CLIENT_CODES = new Set([408, 428, 429, 440]);

/** Early after pairing, app-state patches fail until the phone has shared its keys; they arrive on their own. */
const APP_STATE_KEYS_PENDING = /app state key not present/i;

interface BoomLike {
  isBoom: true;
  message: string;
  output: { statusCode: number };
  data?: unknown;
}

function isBoom(error: unknown): error is BoomLike {
  return typeof error === 'object' && error !== null && (error as { isBoom?: unknown }).isBoom === true;
}

/**
 * The code the network gave. A server error stanza (`<error code="403" text="forbidden"/>`) arrives as a Boom whose
 * status is the default 500 and whose `data` is the real code, so `data` wins when it is one.
 */
function codeOf(error: BoomLike): number {
  return typeof error.data === 'number' && error.data >= 100 && error.data < 600 ? error.data : error.output.statusCode;
}

/**
 * What the worker should make of a failed send: a PermanentSendError when the network refused it for good (bad JID,
 * not authorised, not a member, invalid content), the error itself when a later attempt may succeed.
 */
export function classifySendError(error: unknown): unknown {
  if (error instanceof PermanentSendError || !isBoom(error)) return error;
  const code = codeOf(error);
  const permanent = code >= 400 && code < 500 && !TRANSIENT_CLIENT_CODES.has(code) && !APP_STATE_KEYS_PENDING.test(error.message);
  return permanent ? new PermanentSendError(`the network refused the send (${code}): ${error.message}`) : error;
}
