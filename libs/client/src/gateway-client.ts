import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, OperationRequestBodyContent, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { backoffDelay, sleep } from './backoff.js';
import { GatewayConnectionError, GatewayError } from './errors.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import type { paths } from './generated/openapi.js';
import { isValidIdempotencyKey, newIdempotencyKey } from './idempotency.js';

export interface GatewayClientOptions {
  /** Where the gateway's API answers, e.g. `https://gateway.example.com`. */
  baseUrl: string;
  /** A customer key (every instance of the customer, and `/account/*`) or an instance's own key. */
  apiKey: string;
  /** The instance that instance-scoped calls (`/messages`, `/chats`, `/events`, ...) act on. */
  instanceId?: string;
  /** Headers for every request, e.g. for a proxy in front of the gateway. */
  headers?: Record<string, string>;
  /** Replaces `globalThis.fetch` (tests, proxies, instrumentation). */
  fetch?: (request: Request) => Promise<Response>;
  /** How many times `send` tries again after a lost connection, a 429 or a 5xx; default 3. */
  sendRetries?: number;
}

export interface SendOptions {
  /**
   * The `Idempotency-Key` of this send. Give one to make a retry of yours safe across process restarts (store it with
   * the work item); without one the client makes one, and reports it on the result and on any error.
   */
  idempotencyKey?: string;
  /** Overrides the client's `sendRetries` for this call. */
  retries?: number;
  signal?: AbortSignal;
}

/** `{id}` of the accepted message, and the key it was accepted under. */
export type Sent<Data> = Data & { idempotencyKey: string };

type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The body of a 2xx answer (`undefined` for a 204): errors never reach here, they are thrown as GatewayError. */
export type SuccessData<Result> = Result extends { error?: never; data: infer Data } ? ([Data] extends [never] ? undefined : Data) : never;

/** One HTTP method over every path that has it, typed from the OpenAPI document: path, parameters, body and answer. */
export type GatewayMethod<Method extends HttpMethod> = <
  Path extends PathsWithMethod<paths, Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<SuccessData<FetchResponse<NonNullable<paths[Path][Method]>, Init, MediaType>>>;

type PostPath = PathsWithMethod<paths, 'post'>;
type HeaderParams<Path extends PostPath> = paths[Path]['post'] extends { parameters: { header?: infer Header } }
  ? NonNullable<Header>
  : never;

/** The send routes: POSTs without path parameters that take an `Idempotency-Key`. */
export type SendPath = {
  [Path in PostPath]: Path extends `${string}{${string}`
    ? never
    : [HeaderParams<Path>] extends [never]
      ? never
      : 'Idempotency-Key' extends keyof HeaderParams<Path>
        ? Path
        : never;
}[PostPath];

export type SendBody<Path extends SendPath> = OperationRequestBodyContent<paths[Path]['post']>;
export type SendResult<Path extends SendPath> = SuccessData<FetchResponse<paths[Path]['post'], object, MediaType>>;

/** Answers after which the same send may simply be tried again (the key makes it safe even if it was accepted). */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * The gateway's API, typed from its OpenAPI document. Every method resolves to the body of the 2xx answer and throws
 * a `GatewayError` (`status`, `detail`, `response`) for any other status, or a `GatewayConnectionError` when no
 * answer came; `X-Api-Key` and `X-Instance-Id` travel on every request.
 */
export class GatewayClient {
  readonly GET: GatewayMethod<'get'>;
  readonly POST: GatewayMethod<'post'>;
  readonly PUT: GatewayMethod<'put'>;
  readonly DELETE: GatewayMethod<'delete'>;
  /** The underlying openapi-fetch client (same base URL and headers), for what the methods above do not cover. */
  readonly raw: Client<paths>;
  private readonly fetchRequest: (request: Request) => Promise<Response>;

  constructor(readonly options: GatewayClientOptions) {
    this.fetchRequest = options.fetch ?? ((request) => globalThis.fetch(request));
    this.raw = createClient<paths>({ baseUrl: options.baseUrl, headers: this.headers(), fetch: this.fetchRequest });
    this.GET = this.method('GET');
    this.POST = this.method('POST');
    this.PUT = this.method('PUT');
    this.DELETE = this.method('DELETE');
  }

  /** The same client acting on another instance (with that instance's key, or this client's key when none is given). */
  forInstance(instanceId: string, apiKey = this.options.apiKey): GatewayClient {
    return new GatewayClient({ ...this.options, instanceId, apiKey });
  }

  /**
   * Sends a message once, whatever happens on the way: the request carries an `Idempotency-Key` (yours, or a new one),
   * and a lost connection, a 429 (after its `Retry-After`) or a 5xx is retried with the same key, so the gateway
   * accepts it at most once. The result and every error carry the key, for a retry of your own later.
   */
  async send<Path extends SendPath>(path: Path, body: SendBody<Path>, options: SendOptions = {}): Promise<Sent<SendResult<Path>>> {
    const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
    if (!isValidIdempotencyKey(idempotencyKey)) throw new TypeError('idempotencyKey must be 1-255 visible ASCII characters');
    const retries = options.retries ?? this.options.sendRetries ?? 3;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const data = await this.call(idempotencyKey, () =>
          this.raw.request('post', path, {
            body,
            headers: { 'Idempotency-Key': idempotencyKey },
            signal: options.signal,
          } as never),
        );
        return { ...(data as object), idempotencyKey } as Sent<SendResult<Path>>;
      } catch (error) {
        const retryable = error instanceof GatewayConnectionError || (error instanceof GatewayError && RETRYABLE.has(error.status));
        if (!retryable || attempt >= retries || options.signal?.aborted) throw error;
        const wait = error instanceof GatewayError ? error.retryAfterSeconds : undefined;
        await sleep(wait !== undefined ? wait * 1000 : backoffDelay(attempt + 1, 250, 5_000), options.signal);
      }
    }
  }

  /**
   * The instance's events as they happen (`GET /events/stream`), surviving disconnects without gaps or repeats:
   *
   *     for await (const message of client.events({ lastEventId: saved })) { ...; saved = message.seq }
   */
  events(options: EventStreamOptions = {}): EventStream {
    return new EventStream(
      {
        fetch: this.fetchRequest,
        url: (path) => `${this.options.baseUrl.replace(/\/+$/, '')}${path}`,
        headers: () => this.headers(),
        latestSeq: async (signal) => {
          const page = await this.GET('/events', { params: { query: { order: 'desc', limit: 1 } }, signal });
          return page.items[0]?.seq ?? 0;
        },
      },
      options,
    );
  }

  private headers(): Headers {
    const headers = new Headers(this.options.headers);
    headers.set('X-Api-Key', this.options.apiKey);
    if (this.options.instanceId !== undefined) headers.set('X-Instance-Id', this.options.instanceId);
    return headers;
  }

  private method<Method extends 'GET' | 'POST' | 'PUT' | 'DELETE'>(method: Method): GatewayMethod<Lowercase<Method>> {
    const call = this.raw[method] as (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return ((path: string, init?: object) => this.call(undefined, () => call(path, init))) as GatewayMethod<Lowercase<Method>>;
  }

  private async call(
    idempotencyKey: string | undefined,
    request: () => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  ): Promise<unknown> {
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await request();
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new GatewayConnectionError(
        'the gateway cannot be reached, or the connection broke before it answered',
        { cause: error },
        idempotencyKey,
      );
    }
    if (!result.response.ok) throw errorOf(result.response, result.error, idempotencyKey);
    return result.data;
  }
}

/** A client for the gateway at `baseUrl`, authenticated with `apiKey` (and scoped to `instanceId` when given). */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  return new GatewayClient(options);
}

/** openapi-fetch has already read the body: JSON when it was JSON, else its text. */
function errorOf(response: Response, body: unknown, idempotencyKey: string | undefined): GatewayError {
  const detail =
    body && typeof body === 'object' && typeof (body as { detail?: unknown }).detail === 'string'
      ? (body as { detail: string }).detail
      : `${response.statusText || 'error'}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
  return new GatewayError(response.status, detail, response, idempotencyKey);
}

/** By name, not class: the DOMException may come from another realm (a test sandbox, an iframe). */
function isAbort(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'AbortError' || name === 'TimeoutError';
}
