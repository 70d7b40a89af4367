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

/**
 * The usual set-up of a resource group's suite: an API in-process, a worker process, responses checked against the
 * served OpenAPI document, and an instance world (phones from `prefix`). `ready` receives them before the tests run.
 */
export function useInstanceWorld(prefix: string, ready: (suite: WorldSuite) => void): void {
  let api: RunningApi | undefined;
  let worker: AppProcess | undefined;

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
    const http = new Http(api.url);
    await useServedOpenApi(api.url);
    ready({ api, http, world: await createInstanceWorld(http, prefix) });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop()]);
  });
}
