import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid request: `invalid request body`, or `validation error: <field> ...`',
  401: 'missing or invalid API key or dashboard session: `unauthorized` (`unauthorized: wrong email or password` on sign-in)',
  403: 'not allowed: `device not paired`, or `forbidden: <reason>` (a disabled customer; a dashboard request without a valid CSRF token or from another origin)',
  404: 'no such resource: `not found`',
  409: 'conflict with the current state: `device not paired`, `webhooks are off for this instance (...)`, or `conflict: <reason>`',
  410: 'gone: a one-time dashboard link that expired or was used, or an event cursor older than the retained events (`cursor <n> is older than the retained events: ... the oldest available sequence is <m>`)',
  413: 'request body too large',
  422: 'idempotency key reused with a different request',
  429: 'rate limited; see the Retry-After header',
  503: 'instance not available',
};

/** Documents error responses, all with the `{status, detail}` body. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'error',
        type: ErrorBodyDto,
        headers: status === 429 ? { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } : undefined,
      }),
    ),
  );
}
