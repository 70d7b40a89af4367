import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { SinkDeliveryRepository, WebhookDeliveryRepository } from '@app/database';
import { WebhookQueue } from '@app/redis';
import type {
  BulkRedeliveryDto,
  BulkRedeliveryRequestDto,
  DeliveryReportDto,
  RedeliveryDto,
  SinkAttemptDto,
} from './dto/delivery-report.dto';

const EVENT_ID = /^evt_\d{1,16}_[0-9a-f]{16}$/;

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookQueue,
    private readonly sinks: SinkDeliveryRepository,
  ) {}

  async report(scope: InstanceScope, eventId: string): Promise<DeliveryReportDto> {
    const report = EVENT_ID.test(eventId) ? await this.deliveries.report(scope.instanceId, eventId) : null;
    if (!report) throw new AppError('not_found');
    const sink = await this.sinks.report(scope.instanceId, eventId);
    return {
      eventId,
      state: report.state,
      nextAttemptAt: report.nextAttemptAt?.toISOString() ?? null,
      attempts: report.attempts.map((attempt) => ({ ...attempt, startedAt: attempt.startedAt.toISOString() })),
      sink: sink && {
        state: sink.state,
        nextAttemptAt: sink.nextAttemptAt?.toISOString() ?? null,
        attempts: sink.attempts.map((attempt) => ({
          ...attempt,
          sink: attempt.sink as SinkAttemptDto['sink'],
          startedAt: attempt.startedAt.toISOString(),
        })),
      },
    };
  }

  /** Publishes the event to the instance's broker sink again (schedule from the top); the shard's worker picks it up. */
  async redeliverToSink(scope: InstanceScope, eventId: string): Promise<RedeliveryDto> {
    if (!EVENT_ID.test(eventId)) throw new AppError('not_found');
    const routing = await this.deliveries.routing(scope.instanceId);
    if (!routing?.sink) throw new AppError('sink_off');
    if (!(await this.sinks.redeliver(scope.instanceId, eventId))) throw new AppError('not_found');
    return { eventId, state: 'pending' };
  }

  /** Delivers the event again, with the retry schedule from the top and the same `webhook-id`. */
  async redeliver(scope: InstanceScope, eventId: string): Promise<RedeliveryDto> {
    if (!EVENT_ID.test(eventId)) throw new AppError('not_found');
    const routing = await this.deliveries.routing(scope.instanceId);
    if (!routing?.webhookUrl) throw new AppError('webhooks_off');
    const attempts = await this.deliveries.redeliver(scope.instanceId, eventId);
    if (attempts === null) throw new AppError('not_found');
    await this.queue.runNow(eventId, attempts);
    return { eventId, state: 'pending' };
  }

  /** Bulk recovery: every failed (or pending) delivery since a time starts again, oldest event first. */
  async redeliverSince(scope: InstanceScope, request: BulkRedeliveryRequestDto): Promise<BulkRedeliveryDto> {
    const routing = await this.deliveries.routing(scope.instanceId);
    if (!routing?.webhookUrl) throw new AppError('webhooks_off');
    const restarted = await this.deliveries.redeliverSince(scope.instanceId, new Date(request.since), request.state);
    await this.queue.runNowMany(restarted);
    return { count: restarted.length };
  }
}
