import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from '@app/config';
import { ShardCoordinator } from './shards/shard-coordinator';
import { DeliveryReconciler } from './webhooks/delivery-reconciler';
import { WebhookDeliverer } from './webhooks/webhook-deliverer';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(WorkerModule.forRoot(config), { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.disable('x-powered-by');
  await app.listen(config.workerHealthPort, '0.0.0.0');
  const coordinator = app.get(ShardCoordinator);
  await coordinator.start();
  const deliverer = app.get(WebhookDeliverer);
  const deliveryReconciler = app.get(DeliveryReconciler);
  deliverer.start();
  deliveryReconciler.start();

  // Shutdown order matters: stop taking work and hand shards over before the database and Redis close.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: finishing webhook attempts in flight, handing over shards`);
    deliveryReconciler.stop();
    await Promise.all([deliverer.stop(), coordinator.stop()]);
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
