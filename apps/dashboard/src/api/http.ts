/** A refusal from the API, carrying its own `{status, detail}` so pages can show the server's words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** From a 429's Retry-After: how long until the server takes the request again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Which credentials a request travels with: the signed-in user's session, or the operator's admin key. */
export type Credentials = { kind: 'session' } | { kind: 'admin'; adminKey: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

let csrfToken: string | null = null;

/** Set from the sign-in and session answers; every state-changing request sends it back as X-CSRF-Token. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  instanceId?: string;
  credentials?: Credentials;
  signal?: AbortSignal;
}

export function requestHeaders(options: Pick<RequestOptions, 'method' | 'instanceId' | 'credentials'> & { json?: boolean }): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.json) headers.set('Content-Type', 'application/json');
  if (options.instanceId) headers.set('X-Instance-Id', options.instanceId);
  const credentials = options.credentials ?? { kind: 'session' };
  if (credentials.kind === 'admin') headers.set('X-Admin-Key', credentials.adminKey);
  else if (!SAFE_METHODS.has(options.method ?? 'GET') && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  return headers;
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const retryAfter = Number(response.headers.get('Retry-After') ?? NaN);
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string')
      return new ApiError(response.status, body.detail, Number.isFinite(retryAfter) ? retryAfter : undefined);
  } catch {
    // not JSON: fall through to a plain description
  }
  return new ApiError(response.status, `the server answered ${response.status} ${response.statusText}`.trim());
}

/** One call to the gateway's API; resolves to the parsed JSON body (undefined for 204), rejects with ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: requestHeaders({ ...options, method, json: options.body !== undefined }),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'the gateway cannot be reached; check your connection and try again');
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The words to show a person for any failure: the API's detail, never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return 'something went wrong; try again';
}
