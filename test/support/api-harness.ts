import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { testConfig } from './environment';

export interface RunningApi {
  url: string;
  app: NestExpressApplication;
  config: AppConfig;
  close(): Promise<void>;
}

/** Boots the production HTTP pipeline in-process on a free loopback port. */
export async function startApi(overrides: Partial<AppConfig> = {}): Promise<RunningApi> {
  const config = testConfig(overrides);
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app, config, close: () => app.close() };
}
