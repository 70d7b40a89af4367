/** The body of every error the gateway answers: `{status, detail}`. */
export interface ErrorBody {
  status: number;
  detail: string;
}

/**
 * The gateway answered with a non-2xx status. `status` and `detail` are the API's own `{status, detail}` (or, when a
 * proxy in between answered without that body, the HTTP status and a description of what came back).
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';

  constructor(
    readonly status: number,
    readonly detail: string,
    /** The HTTP response, its body already read. */
    readonly response: Response,
    /** The key a send travelled with: retry with the same key and the gateway sends at most once. */
    readonly idempotencyKey?: string,
  ) {
    super(`${status} ${detail}`);
  }

  /** From `Retry-After` (on 429 and some 503s): seconds to wait before asking again. */
  get retryAfterSeconds(): number | undefined {
    return retryAfterSeconds(this.response);
  }

  /** The `{status, detail}` body, as the gateway sent it. */
  toJSON(): ErrorBody {
    return { status: this.status, detail: this.detail };
  }

  /** Reads a failed response's body into a GatewayError. */
  static async fromResponse(response: Response, idempotencyKey?: string): Promise<GatewayError> {
    const text = await response.text().catch(() => '');
    const body = parseErrorBody(text);
    const detail = body?.detail ?? `${response.statusText || 'error'}${text ? `: ${text.slice(0, 200)}` : ''}`;
    return new GatewayError(response.status, detail, response, idempotencyKey);
  }
}

/** The gateway could not be reached, or the connection broke before an answer arrived. */
export class GatewayConnectionError extends Error {
  override readonly name = 'GatewayConnectionError';

  constructor(
    message: string,
    options: { cause: unknown },
    /** The key a send travelled with: the request may have been accepted; retry with this key to find out safely. */
    readonly idempotencyKey?: string,
  ) {
    super(message, options);
  }
}

function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<ErrorBody> | null;
    if (body && typeof body.detail === 'string') return { status: Number(body.status), detail: body.detail };
  } catch {
    // Not JSON: a proxy or load balancer answered.
  }
  return undefined;
}

export function retryAfterSeconds(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
