import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PartitionMaintenance, type MaintenanceReport } from '@app/database';

const EVERY_MS = 10 * 60_000;
/** Daily partitions kept ready beyond today, so a job that misses runs for a while still leaves inserts a partition. */
const DAYS_AHEAD = 3;

/**
 * Retention for every table that grows (see docs/operations.md): every worker schedules it, and a lease row in
 * PostgreSQL (`maintenance_leases`) lets exactly one of them run it at a time. It creates partitions ahead and drops expired ones; the hot path
 * never deletes history.
 */
@Injectable()
export class RetentionJob implements OnModuleDestroy {
  private readonly logger = new Logger(RetentionJob.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly maintenance: PartitionMaintenance,
  ) {}

  /** Runs once now (so partitions exist from the first minute) and then every 10 minutes. */
  start(): void {
    void this.runOnce();
    this.timer ??= setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  runOnce(now = new Date()): Promise<void> {
    this.running ??= this.run(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(now: Date): Promise<void> {
    const { retention } = this.config;
    try {
      const report = await this.maintenance.run({
        now,
        daysAhead: DAYS_AHEAD,
        eventRetentionHours: this.config.eventRetentionHours,
        messageRetentionDays: retention.messageDays,
        networkMessageRetentionHours: retention.networkMessageHours,
        dashboardRetentionDays: retention.dashboardDays,
        sandboxRetentionDays: retention.sandboxDays,
        orphanMediaRetentionHours: retention.orphanMediaHours,
      });
      this.logReport(report);
    } catch (error) {
      this.logger.warn(`retention run failed (tried again in 10 minutes): ${(error as Error).message}`);
    }
  }

  private logReport(report: MaintenanceReport): void {
    if (!report.ran) return;
    if (report.created.length > 0) this.logger.log(`created partitions ${report.created.join(', ')}`);
    if (report.dropped.length > 0) this.logger.log(`dropped expired partitions ${report.dropped.join(', ')}`);
    for (const kept of report.kept) this.logger.warn(`kept expired partition ${kept.partition}: ${kept.reason}`);
    if (report.movedPendingMessages > 0) {
      this.logger.log(`kept ${report.movedPendingMessages} send(s) not yet dispatched from an expired partition`);
    }
    const deleted = Object.entries(report.deleted).map(([table, count]) => `${table} ${count}`);
    if (deleted.length > 0) this.logger.log(`pruned rows: ${deleted.join(', ')}`);
  }
}
