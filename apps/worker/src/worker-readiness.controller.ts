import { Controller, Get, HttpException } from '@nestjs/common';
import type { HealthCheckResult } from '@nestjs/terminus';
import { Readiness } from '@app/observability';
import { InstanceSessions } from './sessions/instance-sessions';
import { resumeNotDone } from './worker-readiness';

/**
 * The worker's readiness for an orchestrator (docs/kubernetes.md): started (leases held, shard space adopted),
 * PostgreSQL and Redis reachable, and the sessions of the shards it holds resumed. `/health/ready` stays "started" only, so a
 * process manager that waits for it does not wait out a paced resume of thousands of sessions.
 */
@Controller('health')
export class WorkerReadinessController {
  constructor(
    private readonly readiness: Readiness,
    private readonly sessions: InstanceSessions,
  ) {}

  @Get('serving')
  async serving(): Promise<HealthCheckResult> {
    const report = await this.readiness.check();
    const resuming = resumeNotDone(this.sessions.resumeProgress());
    if (resuming) throw new HttpException({ status: 503, detail: resuming }, 503);
    return report;
  }
}
