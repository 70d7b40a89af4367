import { AppError } from '@app/contracts';

/** What a refusal means for one operation, where the network's own wording says too little. */
export interface Refusals {
  /** The reason a 401/403 answer is reported with (`forbidden: <reason>`). */
  forbidden?: string;
  /**
   * Answer codes that mean "no such thing" here: 401/403 where the network refuses outsiders as if the thing did not
   * exist, 406 for an invite code that is not valid.
   */
  notFound?: readonly number[];
}

/** The network answers those who may not see a thing (non-members, hidden pictures) as if it did not exist. */
export const UNSEEN: Refusals = { notFound: [401, 403] };

/** The error texts of the network's IQ answers, for answers that carry no numeric code. */
const CODES_BY_TEXT: Record<string, number> = {
  'bad-request': 400,
  'not-authorized': 401,
  forbidden: 403,
  'item-not-found': 404,
  'not-acceptable': 406,
  conflict: 409,
  gone: 410,
  'rate-overlimit': 429,
};

interface BoomLike {
  isBoom: true;
  message: string;
  data?: unknown;
  output?: { statusCode?: number };
}

function isBoom(error: unknown): error is BoomLike {
  return typeof error === 'object' && error !== null && (error as { isBoom?: unknown }).isBoom === true;
}

/**
 * The network's answer code of a Baileys error. IQ errors carry it in `data` (Baileys' `assertNodeErrorFree` leaves
 * the Boom itself at 500), local checks and GraphQL answers in the Boom's status code.
 */
export function networkCode(error: unknown): number | undefined {
  if (!isBoom(error)) return undefined;
  if (typeof error.data === 'number' && Number.isFinite(error.data)) return error.data;
  const status = error.output?.statusCode;
  if (status !== undefined && status !== 500) return status;
  return CODES_BY_TEXT[error.message] ?? status;
}

/** The AppError for a network answer code; undefined for codes that say nothing about the request. */
export function appErrorFor(code: number | undefined, text: string, refusals: Refusals = {}): AppError | undefined {
  if (code !== undefined && refusals.notFound?.includes(code)) return new AppError('not_found');
  switch (code) {
    case 400:
    case 406:
    case 409:
      return AppError.validation(`the network refused the request (${text})`);
    case 401:
    case 403:
      return AppError.forbidden(refusals.forbidden ?? `the network does not allow this account to do that (${text})`);
    case 404:
    case 410:
      return new AppError('not_found');
    case 429:
      return new AppError('rate_limited');
    // Connection Closed: the socket went away while the operation waited for its answer.
    case 428:
    case 503:
      return new AppError('instance_unavailable');
    default:
      return undefined;
  }
}

/**
 * Turns a Baileys error into the AppError the API reports. Errors that say nothing about the request (timeouts,
 * server faults) stay as they are: the worker reports them as internal.
 */
export function networkError(error: unknown, refusals: Refusals = {}): unknown {
  if (error instanceof AppError || !isBoom(error)) return error;
  if (isMissingAppStateKey(error)) return new AppError('instance_unavailable', APP_STATE_KEY_MISSING);
  return appErrorFor(networkCode(error), error.message, refusals) ?? error;
}

const APP_STATE_KEY_MISSING =
  'instance not available: the phone has not shared its app-state key with this device yet; try again in a few seconds';

/**
 * Chat settings, stars and deletes-for-me are app-state patches, encrypted with a key the phone shares after pairing.
 * Until it arrives Baileys refuses them locally (rc14 `appPatch`: "App state key not present!", a Boom 400;
 * `encodeSyncdPatch`: `data.isMissingKey`): the request was valid and will succeed shortly, so it is no 400.
 */
function isMissingAppStateKey(error: BoomLike): boolean {
  const data = error.data as { isMissingKey?: unknown } | undefined;
  return error.message === 'App state key not present!' || data?.isMissingKey === true;
}

/** Runs one network call and reports its refusal in the operation's own words. */
export async function refused<T>(call: Promise<T>, refusals: Refusals): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw networkError(error, refusals);
  }
}

/** The network answered without what the operation needs: a fault, not something the caller did. */
export function unexpectedAnswer(what: string): Error {
  return new Error(`the network answered without ${what}`);
}
