import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '@app/config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const QUIET_PATHS = new Set(['/health', '/health/ready', '/metrics']);
/** The console's session cookie (apps/api/src/auth/session-cookie.ts): its requests are marked so a reader can skip them. */
const CONSOLE_SESSION = /(?:^|;\s*)mgw_session=/;

/** Paths pino must never print: credentials in headers, secrets in bodies of our own log calls. */
const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers["x-admin-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.apiKey',
  '*.eventSigningSecret',
  '*.defaultSigningSecret',
  '*.password',
  '*.csrfToken',
  'req.headers["x-csrf-token"]',
];

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

interface RequestFields {
  id: string;
  method: string | undefined;
  url: string | undefined;
  /** `console` when the request came from the web console (its session cookie): `npm run dev` hides its polling. */
  client?: 'console';
}

/**
 * Per request: the request id (echoed as `X-Request-Id`, and `req.id` for the error filter) and one line when the
 * response is done (`info`, `warn` for a 503, `error` for other 5xx), as pino-http wrote them: `{req: {id, method, url}, res: {statusCode},
 * responseTime}` and `request completed` / `request aborted` / `request errored`. Unlike pino-http it builds no
 * per-request child logger and serialises nothing when the level is off. Nor does it bind the request to later log
 * calls through AsyncLocalStorage: on Node 20 that turns on async hooks for every promise of the process, about a
 * tenth of the API's CPU per request. Log calls made while handling a request name it themselves (the error filter
 * logs the request id, method and URL).
 */
export function requestLogging(root: Logger) {
  return function logRequest(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void {
    const fields: RequestFields = { id: requestIdOf(req, res), method: req.method, url: req.originalUrl ?? req.url };
    if (CONSOLE_SESSION.test(req.headers.cookie ?? '')) fields.client = 'console';
    (req as { id?: unknown }).id = fields.id;
    // Also keeps an error of the response (a write after its end, say) from being an uncaught exception, as pino-http did.
    let failure: Error | undefined;
    res.on('error', (error: Error) => {
      failure = error;
    });
    if (!QUIET_PATHS.has((fields.url ?? '').split('?')[0])) {
      const started = Date.now();
      res.once('close', () => {
        // A 503 tells the client an instance (or the gateway) is not available now: nothing in the gateway failed, so
        // it is one warn line without a stack, not an error.
        const unavailable = failure === undefined && res.statusCode === 503;
        const failed = !unavailable && (failure !== undefined || res.statusCode >= 500);
        if (!root.isLevelEnabled(failed ? 'error' : unavailable ? 'warn' : 'info')) return;
        const line = { req: fields, res: { statusCode: res.statusCode }, responseTime: Date.now() - started };
        if (failed) root.error({ ...line, err: failure ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
        else if (unavailable) root.warn(line, 'request answered 503 (not available)');
        else root.info(line, res.writableEnded ? 'request completed' : 'request aborted');
      });
    }
    next();
  };
}

/** The request-line middleware of the app's logger; `observeRequests` mounts it. */
export const REQUEST_LOGGING = Symbol('REQUEST_LOGGING');

@Module({})
class RequestLoggingModule {}

/** pino for the whole app: Nest's logger (nestjs-pino) and the request lines above. */
export function loggerModule(config: AppConfig, app: 'api' | 'worker'): DynamicModule {
  const root = pino({
    level: config.logLevel,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: RequestFields) => ({ id: req.id, method: req.method, url: req.url, ...(req.client ? { client: req.client } : {}) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return {
    module: RequestLoggingModule,
    // nestjs-pino supplies the Nest logger over `root`; its pino-http and context middleware are mounted nowhere (ours is).
    imports: [LoggerModule.forRoot({ pinoHttp: { logger: root }, forRoutes: [] })],
    providers: [{ provide: REQUEST_LOGGING, useValue: requestLogging(root) }],
    exports: [LoggerModule, REQUEST_LOGGING],
  };
}
