import { Controller, Get } from '@nestjs/common';
import { InstanceSessions, type PendingReconnect } from './sessions/instance-sessions';
import type { ResumeProgress } from './sessions/resume-pacer';
import { ShardCoordinator } from './shards/shard-coordinator';

/** What this worker owns right now, for operators and the failover tests. */
@Controller('status')
export class WorkerStatusController {
  constructor(
    private readonly coordinator: ShardCoordinator,
    private readonly sessions: InstanceSessions,
  ) {}

  @Get()
  status(): { workerId: string; shards: number[]; sessions: number; resume: ResumeProgress; reconnecting: PendingReconnect[] } {
    return {
      workerId: this.coordinator.workerId,
      shards: this.coordinator.owned(),
      sessions: this.sessions.count(),
      resume: this.sessions.resumeProgress(),
      reconnecting: this.sessions.reconnecting(),
    };
  }
}
