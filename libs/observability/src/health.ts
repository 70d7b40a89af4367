import { Controller, Get, HttpException, Injectable } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult, type HealthIndicatorResult } from '@nestjs/terminus';
import { PrismaService } from '@app/database';
import { RedisService } from '@app/redis';

@Injectable()
export class DependencyIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
  ) {}

  private async probe(name: string, check: () => Promise<void>): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(name);
    try {
      await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref())]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }

  database(): Promise<HealthIndicatorResult> {
    return this.probe('database', () => this.prisma.ping());
  }

  redisServer(): Promise<HealthIndicatorResult> {
    return this.probe('redis', () => this.redis.ping());
  }
}

/**
 * What the process still has to do at start before it can take work (a worker adopting the shard space and starting its
 * lease ownership): readiness answers 503 until each is released. The HTTP port opens earlier, so liveness answers
 * while it starts, and a start that fails (the process exits) is never seen as ready.
 */
@Injectable()
export class StartupGate {
  private readonly waiting = new Set<string>();

  hold(what: string): void {
    this.waiting.add(what);
  }

  release(what: string): void {
    this.waiting.delete(what);
  }

  pending(): string[] {
    return [...this.waiting];
  }
}

class HealthStatusDto {
  /** Always `ok` while the process serves requests. */
  status!: string;
}

/** Started and able to reach PostgreSQL and Redis: what `/health/ready` answers, shared with app-specific probes. */
@Injectable()
export class Readiness {
  constructor(
    private readonly health: HealthCheckService,
    private readonly dependencies: DependencyIndicators,
    private readonly startup: StartupGate,
  ) {}

  /** Resolves with the dependency report when ready; throws a 503 `{status, detail}` saying why not. */
  async check(): Promise<HealthCheckResult> {
    const starting = this.startup.pending();
    if (starting.length > 0) throw new HttpException({ status: 503, detail: `not ready: starting (${starting.join(', ')})` }, 503);
    try {
      return await this.health.check([() => this.dependencies.database(), () => this.dependencies.redisServer()]);
    } catch (error) {
      const result = error instanceof HttpException ? (error.getResponse() as Partial<HealthCheckResult>) : {};
      const down = Object.keys(result.error ?? {}).join(', ') || 'dependencies';
      throw new HttpException({ status: 503, detail: `not ready: ${down} unavailable` }, 503);
    }
  }
}

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** Liveness: the process is up. */
  @Get()
  @ApiOkResponse({ type: HealthStatusDto })
  live(): HealthStatusDto {
    return { status: 'ok' };
  }

  /** Readiness: the process has started, and PostgreSQL and Redis answer. */
  @Get('ready')
  @ApiOkResponse({ description: 'started; PostgreSQL and Redis are reachable' })
  @ApiServiceUnavailableResponse({ description: 'still starting, or a dependency is down; `detail` says which' })
  ready(): Promise<HealthCheckResult> {
    return this.readiness.check();
  }
}
