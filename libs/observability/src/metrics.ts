import {
  Controller,
  Get,
  Header,
  Inject,
  Injectable,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type NestMiddleware,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { onDecodeFailure } from '@app/contracts';
import { secretsEqual } from '@app/security';

/** One Prometheus registry per process, with Node's default metrics and request timings. */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  /** Real-network messages whose copy failed to decrypt: a later copy decrypted, or `message_undecryptable` went out. */
  readonly undecryptableMessages = new Counter({
    name: 'worker_undecryptable_messages_total',
    help: 'Real-network messages that failed to decrypt, by outcome: recovered (a resend decrypted) or reported (message_undecryptable)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Values from another process (command, job, stored row, Redis value) this process refused to read, by boundary. */
  readonly decodeFailures = new Counter({
    name: 'gateway_decode_failures_total',
    help: 'Values crossing a process boundary that did not decode (malformed, or written by a newer version), by boundary',
    labelNames: ['boundary'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    onDecodeFailure((boundary) => this.decodeFailures.inc({ boundary }));
  }
}

/** A histogram's child for one set of label values: what `observe` needs once the labels are resolved. */
type Observer = { observe(value: number): void };

@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  /**
   * The histogram's child per `method route status`: prom-client checks and hashes a label object on every observation,
   * which costs more than the observation. Bounded as the labels are (route templates, not paths).
   */
  private readonly observers = new Map<string, Observer>();

  constructor(private readonly metrics: MetricsRegistry) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = performance.now();
    res.on('finish', () => {
      // The route template, never the raw path, keeps label cardinality bounded.
      const route = `${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? 'unmatched'}`;
      this.observerOf(req.method, route, res.statusCode).observe((performance.now() - started) / 1000);
    });
    next();
  }

  private observerOf(method: string, route: string, statusCode: number): Observer {
    const key = `${method} ${route} ${statusCode}`;
    let observer = this.observers.get(key);
    if (!observer) {
      observer = this.metrics.httpDuration.labels({ method, route, status: String(statusCode) });
      this.observers.set(key, observer);
    }
    return observer;
  }
}

/** With `METRICS_TOKEN` set, only a scraper presenting `Authorization: Bearer <token>` reads the metrics. */
@Injectable()
class MetricsTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const token = this.config.metricsToken;
    if (token === undefined) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (presented === undefined || !secretsEqual(presented, token)) throw new UnauthorizedException();
    return true;
  }
}

@ApiExcludeController()
@UseGuards(MetricsTokenGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
