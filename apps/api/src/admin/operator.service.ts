import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  REDIS_VALUE_WIRE_VERSION,
  decodeWireJsonOr,
  workerResumeKey,
  workerResumeProgressSchema,
  type WorkerResumeProgress,
} from '@app/contracts';
import { CustomerRepository, DashboardUserRepository, ShardLeaseRepository } from '@app/database';
import { RedisService } from '@app/redis';
import { KeyResolver } from '../auth/key-resolver';
import type { OneTimeLinkDto, TeamMemberDto } from '../dashboard/dto/dashboard.dto';
import { LinkIssuer } from '../dashboard/link-issuer';
import { toTeamMember } from '../dashboard/team.service';
import { toCustomerSummary } from './customers.service';
import type { CustomerSummaryDto, OverviewDto } from './dto/customer.dto';

/** The operator's actions on a customer (users, password resets, disabling) and the deployment's health overview. */
@Injectable()
export class OperatorService {
  private readonly logger = new Logger(OperatorService.name);
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly customers: CustomerRepository,
    private readonly users: DashboardUserRepository,
    private readonly links: LinkIssuer,
    private readonly keys: KeyResolver,
    private readonly leases: ShardLeaseRepository,
    private readonly redis: RedisService,
  ) {}

  async listUsers(customerId: string): Promise<TeamMemberDto[]> {
    await this.requireCustomer(customerId);
    return (await this.users.list(customerId)).map(toTeamMember);
  }

  /** "Forgot password": a fresh one-time link; the current password keeps working until the link is used. */
  async passwordReset(customerId: string, userId: string, request: Request): Promise<OneTimeLinkDto> {
    const link = this.links.issue('password_reset');
    if (!(await this.users.addLink(customerId, userId, link.record))) throw new AppError('not_found');
    return { inviteUrl: this.links.url(link.token, request), expiresAt: link.record.expiresAt.toISOString() };
  }

  /** Keys cached by any replica are dropped, so a disabled customer is refused everywhere at once (and re-enabled likewise). */
  async setDisabled(customerId: string, disabled: boolean): Promise<CustomerSummaryDto> {
    const result = await this.customers.setDisabled(customerId, disabled);
    if (!result) throw new AppError('not_found');
    await this.keys.revokeKeyHashes(result.keyHashes);
    return toCustomerSummary(result.customer);
  }

  async overview(): Promise<OverviewDto> {
    const shardCount = this.config.shardCount;
    const [{ leases, workers: live }, counts] = await Promise.all([this.leases.overview(), this.customers.counts()]);
    const workers = new Map(live.map((worker) => [worker.id, { shards: [] as number[], aliveUntil: worker.expiresAt.getTime() }]));
    let owned = 0;
    for (const lease of leases) {
      if (lease.shard >= shardCount) continue;
      owned += 1;
      let worker = workers.get(lease.workerId);
      // A lease outlives its worker's membership by at most a renewal period.
      if (!worker) workers.set(lease.workerId, (worker = { shards: [], aliveUntil: lease.expiresAt.getTime() }));
      worker.shards.push(lease.shard);
    }
    const byStatus = counts.instancesByStatus;
    const resume = await this.resumeProgress([...workers.keys()]);
    return {
      workers: [...workers]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, worker]) => ({
          id,
          shards: worker.shards,
          aliveUntil: new Date(worker.aliveUntil).toISOString(),
          ...(resume.has(id) ? { resume: resume.get(id) } : {}),
        })),
      shards: { total: shardCount, owned, unowned: shardCount - owned },
      instances: { total: Object.values(byStatus).reduce((sum, n) => sum + n, 0), byStatus },
      customers: { total: counts.customers, disabled: counts.disabledCustomers },
    };
  }

  /**
   * Each worker's resume progress as it last published it (see `ResumeProgressPublisher`); a worker that has not yet
   * published one (or whose key expired) has none. The keys need not share a node: `mget` reads them per key on a cluster.
   */
  private async resumeProgress(workerIds: string[]): Promise<Map<string, WorkerResumeProgress>> {
    const progress = new Map<string, WorkerResumeProgress>();
    if (workerIds.length === 0) return progress;
    const values = await this.redis.mget(workerIds.map((id) => workerResumeKey(this.config.queuePrefix, id)));
    values.forEach((value, index) => {
      if (typeof value !== 'string') return;
      const decoded = decodeWireJsonOr('worker_progress', workerResumeProgressSchema, REDIS_VALUE_WIRE_VERSION, value, (reason) =>
        this.logger.warn({ workerId: workerIds[index], boundary: 'worker_progress', reason }, 'worker resume progress unreadable'),
      );
      if (!decoded) return;
      const { pending, resumed, total } = decoded;
      progress.set(workerIds[index], { pending, resumed, total });
    });
    return progress;
  }

  private async requireCustomer(customerId: string): Promise<void> {
    if (!(await this.customers.find(customerId))) throw new AppError('not_found');
  }
}
