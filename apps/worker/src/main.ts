import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from '@app/config';
import { exitWithin, observeRequests } from '@app/observability';
import { ShardCoordinator } from './shards/shard-coordinator';
import { RetentionJob } from './retention/retention-job';
import { DeliveryReconciler } from './webhooks/delivery-reconciler';
import { WebhookDeliverer } from './webhooks/webhook-deliverer';
import { SinkPublisher } from './sinks/sink-publisher';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(WorkerModule.forRoot(config), { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  observeRequests(app);
  app.disable('x-powered-by');
  await app.listen(config.workerHealthPort, '0.0.0.0');
  const coordinator = app.get(ShardCoordinator);
  // A refused start (workers of the old shard count still hold leases) exits here, never having been ready.
  await coordinator.start();
  const deliverer = app.get(WebhookDeliverer);
  const deliveryReconciler = app.get(DeliveryReconciler);
  const retention = app.get(RetentionJob);
  const sinks = app.get(SinkPublisher);
  deliverer.start();
  sinks.start(() => coordinator.owned());
  deliveryReconciler.start();
  retention.start();

  // Shutdown order matters: stop taking work, let what is in progress finish, hand shards over, then close connections.
  exitWithin({
    timeoutMs: config.shutdownTimeoutMs,
    logger: { log: (message) => logger.log(message), error: (message) => logger.error(message) },
    run: async (deadline) => {
      deliveryReconciler.stop();
      await Promise.all([deliverer.stop(deadline), sinks.stop(deadline), coordinator.stop(deadline), retention.stop()]);
      if (!(await deadline.settles(app.close()))) throw new Error('closing connections did not finish in time');
    },
  });
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
