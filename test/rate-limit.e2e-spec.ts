import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { createCustomer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';

describe('rate limits', () => {
  let api: RunningApi;
  let http: Http;

  beforeAll(async () => {
    api = await startApi({
      queuePrefix: subPrefix('rl'),
      rateLimit: { requests: 5, windowSeconds: 30 },
      authFailureLimit: { limit: 3, windowSeconds: 60, blockSeconds: 45 },
    });
    http = new Http(api.url);
    await useServedOpenApi(api.url);
  });

  afterAll(async () => {
    await api.close();
  });

  it('answers a burst over the per-key limit with 429 and Retry-After, and leaves other keys alone', async () => {
    const noisy = await createCustomer(http, 'Noisy');
    const quiet = await createCustomer(http, 'Quiet');
    const burst = await Promise.all(Array.from({ length: 8 }, () => http.get('/account/instances', { 'X-Api-Key': noisy.apiKey })));
    const statuses = burst.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const response of burst.filter((r) => r.status === 429)) {
      expectErrorBody(response, 429, 'rate limited');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(30);
    }
    expect((await http.get('/account/instances', { 'X-Api-Key': quiet.apiKey })).status).toBe(200);
  });

  it('blocks an address after repeated failed authentications, but never a valid key from it', async () => {
    const customer = await createCustomer(http, 'Victim of a guesser');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': `mgw_ck_guess${attempt}` }), 401, 'unauthorized');
    }
    const blocked = await http.get('/account/instances', { 'X-Api-Key': 'mgw_ck_guess4' });
    expectErrorBody(blocked, 429, 'rate limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(30);
    expect((await http.get('/account/instances', { 'X-Api-Key': customer.apiKey })).status).toBe(200);
  });
});
