import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@app/config';
import { DatabaseModule } from '@app/database';
import { BaileysModule, MessagingModule } from '@app/messaging';
import { ObservabilityModule, loggerModule } from '@app/observability';
import { RedisModule, SendDoorbells, WebhookQueue } from '@app/redis';
import { MediaResolver } from './dispatch/media-resolver';
import { SendDispatcher } from './dispatch/send-dispatcher';
import { UnconfirmedSends } from './dispatch/unconfirmed-sends';
import { SendQueueConsumers } from './dispatch/send-queue-consumers';
import { SendReconciler } from './dispatch/send-reconciler';
import { EventFanout } from './events/event-fanout';
import { EventRoutingCache } from './events/event-routing.cache';
import { CommandRouter } from './sessions/command-router';
import { DriverRegistry } from './sessions/driver-registry';
import { EventRecorder } from './sessions/event-recorder';
import { InstanceSessions } from './sessions/instance-sessions';
import { NetworkProxies } from './sessions/network-proxies';
import { NetworkOperator } from './sessions/network-operator';
import { resumePacerProvider } from './sessions/resume-pacer.provider';
import { sendBreakerProvider } from './dispatch/send-breaker.provider';
import { SendingPauses } from './dispatch/sending-pauses';
import { ResumeProgressPublisher } from './sessions/resume-progress.publisher';
import { StatusStore } from './sessions/status-store';
import { GroupMetadataProjection } from './groups/group-metadata.projection';
import { GroupOperationEffects } from './groups/group-operation-effects';
import { ContactChatEffects } from './store/contact-chat-effects';
import { ChatActivity } from './store/chat-activity';
import { OperationEffects } from './store/operation-effects';
import { StoreProjector } from './store/store-projector';
import { ShardCoordinator } from './shards/shard-coordinator';
import { ShardLeaseCheck } from './shards/shard-lease-check';
import { DeliveryReconciler } from './webhooks/delivery-reconciler';
import { RetentionJob } from './retention/retention-job';
import { EndpointRecovery } from './webhooks/endpoint-recovery';
import { WebhookDeliverer } from './webhooks/webhook-deliverer';
import { SinkConnections } from './sinks/sink-connections';
import { SinkPublisher } from './sinks/sink-publisher';
import { WorkerStatusController } from './worker-status.controller';
import { WorkerReadinessController } from './worker-readiness.controller';
import { SendMetrics } from './dispatch/send-metrics';
import { QueueMetrics } from './dispatch/queue-metrics';
import { DeliveryMetrics } from './webhooks/delivery-metrics';
import { ShardMetrics } from './shards/shard-metrics';
import { SessionMetrics } from './sessions/session-metrics';

/** The worker: owns network sessions (shards), sends, and event delivery. Only health, metrics and status are served over HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        loggerModule(config, 'worker'),
        DatabaseModule,
        RedisModule,
        ObservabilityModule,
        MessagingModule,
        BaileysModule,
      ],
      controllers: [WorkerStatusController, WorkerReadinessController],
      providers: [
        StatusStore,
        EventRoutingCache,
        WebhookQueue,
        EventFanout,
        EventRecorder,
        DriverRegistry,
        StoreProjector,
        ChatActivity,
        OperationEffects,
        GroupMetadataProjection,
        GroupOperationEffects,
        ContactChatEffects,
        resumePacerProvider,
        sendBreakerProvider,
        SendingPauses,
        InstanceSessions,
        NetworkProxies,
        ResumeProgressPublisher,
        NetworkOperator,
        CommandRouter,
        MediaResolver,
        SendDispatcher,
        UnconfirmedSends,
        SendQueueConsumers,
        SendDoorbells,
        SendReconciler,
        ShardLeaseCheck,
        ShardCoordinator,
        WebhookDeliverer,
        SinkConnections,
        SinkPublisher,
        EndpointRecovery,
        DeliveryReconciler,
        RetentionJob,
        SendMetrics,
        QueueMetrics,
        DeliveryMetrics,
        ShardMetrics,
        SessionMetrics,
      ],
    };
  }
}
