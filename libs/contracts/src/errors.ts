/** Every error the API can answer with; the filter turns each into exactly `{status, detail}`. */
export const ERROR_CATALOGUE = {
  invalid_body: { status: 400, detail: 'invalid request body' },
  validation: { status: 400, detail: 'validation error' },
  missing_instance_header: { status: 400, detail: 'missing X-Instance-Id header' },
  device_already_paired: { status: 400, detail: 'device already paired' },
  unauthorized: { status: 401, detail: 'unauthorized' },
  wrong_credentials: { status: 401, detail: 'unauthorized: wrong email or password' },
  device_not_paired: { status: 403, detail: 'device not paired' },
  forbidden: { status: 403, detail: 'forbidden' },
  csrf: { status: 403, detail: 'forbidden: csrf token missing or invalid' },
  customer_disabled: { status: 403, detail: 'forbidden: this customer is disabled' },
  not_found: { status: 404, detail: 'not found' },
  device_not_paired_conflict: { status: 409, detail: 'device not paired' },
  email_taken: { status: 409, detail: 'conflict: a dashboard user with this email already exists' },
  last_active_user: { status: 409, detail: 'conflict: the last active user of a customer cannot be removed' },
  link_gone: { status: 410, detail: 'gone: this link has expired or was already used' },
  webhooks_off: { status: 409, detail: 'webhooks are off for this instance (pull mode, or no webhook URL)' },
  sink_off: { status: 409, detail: 'this instance has no event sink' },
  cursor_expired: { status: 410, detail: 'cursor is older than the retained events' },
  payload_too_large: { status: 413, detail: 'request body too large' },
  idempotency_mismatch: { status: 422, detail: 'idempotency key reused with a different request' },
  rate_limited: { status: 429, detail: 'rate limited' },
  internal: { status: 500, detail: 'internal error' },
  instance_unavailable: { status: 503, detail: 'instance not available' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorBody {
  status: number;
  detail: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly detail: string;

  /** `detail` replaces the catalogue text only for the codes whose text carries specifics (validation, forbidden). */
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    const entry = ERROR_CATALOGUE[code];
    super(detail ?? entry.detail);
    this.status = entry.status;
    this.detail = detail ?? entry.detail;
  }

  static validation(message: string): AppError {
    return new AppError('validation', `validation error: ${message}`);
  }

  /** A pull cursor (`after`, `Last-Event-ID`) whose next events were pruned: names the oldest sequence still kept. */
  static cursorExpired(after: bigint, oldestKept: bigint): AppError {
    return new AppError(
      'cursor_expired',
      `cursor ${after} is older than the retained events: events ${after + 1n} to ${oldestKept - 1n} were pruned, the oldest available sequence is ${oldestKept}`,
    );
  }

  static forbidden(reason: string): AppError {
    return new AppError('forbidden', `forbidden: ${reason}`);
  }

  toBody(): ErrorBody {
    return { status: this.status, detail: this.detail };
  }
}
