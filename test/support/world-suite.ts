import type { AppConfig } from '@app/config';
import { startApi, type RunningApi } from './api-harness';
import { Http } from './http';
import { createInstanceWorld, type InstanceWorld } from './instance-world';
import { useServedOpenApi } from './openapi';
import { spawnApp, type AppProcess } from './processes';

export interface WorldSuite {
  api: RunningApi;
  http: Http;
  world: InstanceWorld;
}

/** What a suite needs of its API and worker beyond the tests' defaults. */
export interface WorldSettings {
  api?: Partial<AppConfig>;
  workerEnv?: Record<string, string>;
}

/** Lets the API and the worker fetch media from loopback, which production refuses (the operator's allow-list). */
export const LOOPBACK_MEDIA: WorldSettings = {
  api: { webhookAllowedHosts: ['127.0.0.1'] },
  workerEnv: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
};

/**
 * The usual set-up of a resource group's suite: an API in-process, a worker process, responses checked against the
 * served OpenAPI document, and an instance world (phones from `prefix`). `ready` receives them before the tests run.
 */
export function useInstanceWorld(prefix: string, ready: (suite: WorldSuite) => void, settings: WorldSettings = {}): void {
  let api: RunningApi | undefined;
  let worker: AppProcess | undefined;

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(settings.api), spawnApp('worker', settings.workerEnv)]);
    const http = new Http(api.url);
    await useServedOpenApi(api.url);
    ready({ api, http, world: await createInstanceWorld(http, prefix) });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop()]);
  });
}
