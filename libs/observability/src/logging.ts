import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '@app/config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const QUIET_PATHS = new Set(['/health', '/health/ready', '/metrics']);

/** Paths pino must never print: credentials in headers, secrets in bodies of our own log calls. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers["x-admin-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.apiKey',
  '*.eventSigningSecret',
  '*.defaultSigningSecret',
  '*.password',
];

export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function loggerModule(config: AppConfig, app: 'api' | 'worker') {
  return LoggerModule.forRoot({
    pinoHttp: {
      level: config.logLevel,
      base: { app },
      genReqId: requestIdOf,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  });
}
