import { expect, test } from './support/fixtures';
import { SwaggerUi } from './support/swagger-ui';

test.describe('Swagger UI at /docs', () => {
  test('authorizes with a customer key and lists the account instances with Try it out', async ({
    page,
    gateway,
    account,
    saveScreenshot,
  }) => {
    const docs = new SwaggerUi(page);
    await docs.open(gateway.apiUrl);
    await docs.authorize({ 'X-Api-Key': account.customer.apiKey, 'X-Instance-Id': account.instance.id });

    const instances = await docs.tryItOut('get', '/account/instances');
    await saveScreenshot('account instances', docs.operation('get', '/account/instances'));

    expect(instances.status).toBe(200);
    expect(instances.body).toMatchObject({ items: [{ id: account.instance.id, name: 'browser', status: 'connected' }], totalCount: 1 });
  });
});
