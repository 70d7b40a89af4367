import { expect, test } from './support/fixtures';
import { SwaggerUi } from './support/swagger-ui';

test.describe('Swagger UI at /docs', () => {
  test('authorizes with a customer key and an instance, then sends a text, lists chats and lists instances with Try it out', async ({
    page,
    gateway,
    account,
    saveScreenshot,
  }) => {
    const docs = new SwaggerUi(page);
    await docs.open(gateway.apiUrl);
    await docs.authorize({ 'X-Api-Key': account.customer.apiKey, 'X-Instance-Id': account.instance.id });

    const sent = await docs.tryItOut('post', '/messages/text', { body: { to: '447700900123', message: 'Hello from Swagger UI' } });
    await saveScreenshot('send text', docs.operation('post', '/messages/text'));
    expect(sent).toEqual({ status: 201, body: { id: expect.stringMatching(/\S/) } });
    // It went through the real pipeline: the sandbox network carried it.
    await gateway.client.waitFor(async () => {
      const outbox = await gateway.client.get('/sandbox/outbox', account.headers);
      return (outbox.body as { id?: string }[]).some((entry) => entry.id === (sent.body as { id: string }).id);
    }, 'the text to reach the sandbox network');

    const chats = await docs.tryItOut('get', '/chats');
    await saveScreenshot('chats', docs.operation('get', '/chats'));
    expect(chats.status).toBe(200);

    const instances = await docs.tryItOut('get', '/account/instances');
    await saveScreenshot('account instances', docs.operation('get', '/account/instances'));
    expect(instances.status).toBe(200);
    expect(instances.body).toMatchObject({ items: [{ id: account.instance.id, name: 'browser', status: 'connected' }], totalCount: 1 });
  });
});
