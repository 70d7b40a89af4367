import type { AddressInfo } from 'node:net';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@app/config';
import { ApiModule } from '../../apps/api/src/api.module';
import { configureApp } from '../../apps/api/src/configure-app';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { loadOpenApiMetadata } from '../../apps/api/src/openapi-plugin-metadata';
import { testConfig } from './environment';

export interface RunningApi {
  url: string;
  app: NestExpressApplication;
  config: AppConfig;
  close(): Promise<void>;
}

/** A provider to replace (by its token) for one test API, e.g. shorter timings. */
export interface ProviderOverride {
  provide: string | symbol | (abstract new (...args: never[]) => unknown);
  useValue: unknown;
}

/** The same app as createApiApp, with some providers replaced. */
async function createApiAppWith(config: AppConfig, overrides: ProviderOverride[]): Promise<NestExpressApplication> {
  await loadOpenApiMetadata();
  let builder = Test.createTestingModule({ imports: [ApiModule.forRoot(config)] });
  for (const { provide, useValue } of overrides) builder = builder.overrideProvider(provide).useValue(useValue);
  const moduleRef = await builder.compile();
  return configureApp(moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true }), config);
}

/** Boots the production HTTP pipeline in-process on a free loopback port. */
export async function startApi(overrides: Partial<AppConfig> = {}, providers: ProviderOverride[] = []): Promise<RunningApi> {
  const config = testConfig(overrides);
  const app = providers.length > 0 ? await createApiAppWith(config, providers) : await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app, config, close: () => app.close() };
}
