import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@app/config';
import { ApiModule } from './api.module';
import { configureApp } from './configure-app';
import { loadOpenApiMetadata } from './openapi-plugin-metadata';

export async function createApiApp(config: AppConfig): Promise<NestExpressApplication> {
  await loadOpenApiMetadata();
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), { bodyParser: false, bufferLogs: true });
  return configureApp(app, config);
}
