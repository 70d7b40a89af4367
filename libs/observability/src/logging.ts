import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { storage } from 'nestjs-pino/storage';
import { pino, type Logger } from 'pino';
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

interface RequestFields {
  id: string;
  method: string | undefined;
  url: string | undefined;
}

/**
 * What nestjs-pino's `PinoLogger` reads (`logger`) and writes (`assign`) for log calls made while a request is
 * handled. The request's child logger is made only when something actually logs during the request.
 */
class RequestLogContext {
  private own: Logger | undefined;
  readonly responseLogger = undefined;

  constructor(
    private readonly root: Logger,
    private readonly fields: RequestFields,
  ) {}

  get logger(): Logger {
    this.own ??= this.root.child({ req: this.fields });
    return this.own;
  }

  set logger(logger: Logger) {
    this.own = logger;
  }
}

/**
 * Per request: the request id (echoed as `X-Request-Id`), the request context for log calls, and one line when the
 * response is done (`info`, `error` for 5xx), as pino-http wrote them: `{req: {id, method, url}, res: {statusCode},
 * responseTime}` and `request completed` / `request aborted` / `request errored`. Unlike pino-http it builds no
 * per-request logger up front and serialises nothing when the level is off.
 */
export function requestLogging(root: Logger) {
  return function logRequest(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void {
    const fields: RequestFields = { id: requestIdOf(req, res), method: req.method, url: req.originalUrl ?? req.url };
    // The request id for the error filter and anyone else handling the request.
    (req as { id?: unknown }).id = fields.id;
    if (!QUIET_PATHS.has((fields.url ?? '').split('?')[0])) {
      const started = Date.now();
      let failure: Error | undefined;
      res.once('error', (error: Error) => {
        failure = error;
      });
      res.once('close', () => {
        const failed = failure !== undefined || res.statusCode >= 500;
        if (!root.isLevelEnabled(failed ? 'error' : 'info')) return;
        const line = { req: fields, res: { statusCode: res.statusCode }, responseTime: Date.now() - started };
        if (failed) root.error({ ...line, err: failure ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
        else root.info(line, res.writableEnded ? 'request completed' : 'request aborted');
      });
    }
    storage.run(new RequestLogContext(root, fields), next);
  };
}

const REQUEST_LOGGING = Symbol('REQUEST_LOGGING');

@Module({})
export class RequestLoggingModule implements NestModule {
  constructor(@Inject(REQUEST_LOGGING) private readonly middleware: ReturnType<typeof requestLogging>) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(this.middleware).forRoutes('*');
  }
}

/** pino for the whole app: Nest's logger (nestjs-pino, request context included) and the request lines above. */
export function loggerModule(config: AppConfig, app: 'api' | 'worker'): DynamicModule {
  const root = pino({
    level: config.logLevel,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return {
    module: RequestLoggingModule,
    // nestjs-pino supplies the Nest logger over `root`; its own pino-http middleware is mounted nowhere (ours is).
    imports: [LoggerModule.forRoot({ pinoHttp: { logger: root }, forRoutes: [] })],
    providers: [{ provide: REQUEST_LOGGING, useValue: requestLogging(root) }],
    exports: [LoggerModule],
  };
}
