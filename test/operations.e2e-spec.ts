import { startApi, type RunningApi } from './support/api-harness';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';

describe('operations endpoints', () => {
  let api: RunningApi;
  let worker: AppProcess;

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop()]);
  });

  it('reports the API live and ready with PostgreSQL and Redis up', async () => {
    const http = new Http(api.url, { checkSpec: false });
    expect((await http.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('boots the worker, which reports ready on its health port', async () => {
    const http = new Http(worker.url, { checkSpec: false });
    expect((await http.get('/health')).body).toEqual({ status: 'ok' });
    expect((await http.get('/health/ready')).body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('exposes Prometheus metrics with request timings by route template', async () => {
    const http = new Http(api.url, { checkSpec: false });
    await http.get('/account/instances/ins_x', { 'X-Api-Key': 'nope' });
    const response = await http.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toContain('process_resident_memory_bytes');
    expect(response.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/account\/instances\/:id",status="401"\} \d+/);
  });

  it('stays live but answers not ready with 503 while Redis is unreachable', async () => {
    const broken = await spawnApp('api', { REDIS_URL: 'redis://127.0.0.1:1' }, 'live');
    try {
      const http = new Http(broken.url, { checkSpec: false });
      expect((await http.get('/health')).status).toBe(200);
      const ready = await http.get('/health/ready');
      expect(ready.body).toEqual({ status: 503, detail: 'not ready: redis unavailable' });
    } finally {
      await broken.stop();
    }
  });
});
