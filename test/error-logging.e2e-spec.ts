import { adminHeaders } from './support/fixtures';
import { eventually } from './support/event-log';
import { spawnApp, type AppProcess } from './support/processes';

/**
 * An answer to a client's own mistake (4xx) or about an instance that is not available (503) is not a failure of the
 * gateway: the log must not report it at level error (50) or above, nor with a stack.
 */
describe('what the API logs when it refuses a request', () => {
  let api: AppProcess;
  let worker: AppProcess;

  beforeAll(async () => {
    const env = { LOG_LEVEL: 'info', RATE_LIMIT_REQUESTS: '100000', AUTH_FAILURE_LIMIT: '100000' };
    [api, worker] = await Promise.all([spawnApp('api', env), spawnApp('worker', env)]);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
  });

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> };
  };

  it('logs no error for a 400, 401, 404 or a 503 "instance not available"', async () => {
    const customer = await call('POST', '/admin/customers', { name: 'Quiet log' }, adminHeaders());
    const key = { 'X-Api-Key': String(customer.body.apiKey) };
    const instance = await call('POST', '/account/instances', { name: 'offline', sandbox: true }, key);
    const headers = { ...key, 'X-Instance-Id': String(instance.body.id) };
    expect((await call('POST', '/sandbox/pair', { phone: '15550460001' }, headers)).status).toBe(200);
    await eventually(
      async () => (await call('GET', '/session/status', undefined, headers)).body,
      (status) => status.isConnected === true,
    );
    expect((await call('POST', '/sandbox/connection', { state: 'offline' }, headers)).status).toBe(204);
    await eventually(
      async () => (await call('GET', '/session/status', undefined, headers)).body,
      (status) => status.isConnected === false,
    );
    const logFrom = api.output().length;

    const refused = [
      await call('POST', '/messages/text', { to: '447700900123', text: 'hi' }, headers),
      await call('GET', '/chats', undefined, headers),
      await call('PUT', `/account/instances/${String(instance.body.id)}/name`, { name: '' }, key),
      await call('GET', '/account/instances', undefined, { 'X-Api-Key': 'mgw_wrong' }),
      await call('GET', '/events/evt_1_0123456789abcdef/deliveries', undefined, headers),
    ];
    expect(refused.map(({ status, body }) => [status, body?.detail])).toEqual([
      [503, 'instance not available'],
      [503, 'instance not available'],
      [400, 'validation error: name must be 1-100 characters, not only spaces'],
      [401, 'unauthorized'],
      [404, 'not found'],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = api
      .output()
      .slice(logFrom)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg?: string; err?: { stack?: string } });
    expect(lines.filter((line) => line.level >= 50 || line.err?.stack)).toEqual([]);
  });
});
