import { startApi, type RunningApi } from './support/api-harness';
import { createCustomer, createInstance } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody } from './support/openapi';

describe('with test mode switched off by the operator', () => {
  let api: RunningApi;
  let http: Http;

  beforeAll(async () => {
    api = await startApi({ sandboxEnabled: false });
    http = new Http(api.url, { checkSpec: false });
  });

  afterAll(async () => {
    await api.close();
  });

  it('refuses sandbox instances and has no sandbox control surface at all', async () => {
    const customer = await createCustomer(http, 'Prod Only');
    expectErrorBody(
      await http.post('/account/instances', { sandbox: true }, { 'X-Api-Key': customer.apiKey }),
      400,
      'validation error: sandbox is disabled on this server',
    );
    const real = await createInstance(http, customer.apiKey, { name: 'real' });
    expectErrorBody(await http.post('/sandbox/pair', {}, { 'X-Api-Key': real.apiKey, 'X-Instance-Id': real.id }), 404, 'not found');
    const document = (await http.get('/docs-json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/sandbox'))).toEqual([]);
  });
});
