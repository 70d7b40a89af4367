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

class HealthStatusDto {
  /** Always `ok` while the process serves requests. */
  status!: string;
}

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly dependencies: DependencyIndicators,
  ) {}

  /** Liveness: the process is up. */
  @Get()
  @ApiOkResponse({ type: HealthStatusDto })
  live(): HealthStatusDto {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis answer. */
  @Get('ready')
  @ApiOkResponse({ description: 'PostgreSQL and Redis are reachable' })
  @ApiServiceUnavailableResponse({ description: 'a dependency is down; `detail` names it' })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.dependencies.database(), () => this.dependencies.redisServer()]);
    } catch (error) {
      const result = error instanceof HttpException ? (error.getResponse() as Partial<HealthCheckResult>) : {};
      const down = Object.keys(result.error ?? {}).join(', ') || 'dependencies';
      throw new HttpException({ status: 503, detail: `not ready: ${down} unavailable` }, 503);
    }
  }
}
