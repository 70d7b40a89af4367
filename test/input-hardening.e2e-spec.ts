import { eventually } from './support/event-log';
import { adminHeaders } from './support/fixtures';
import type { Headers, Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { useInstanceWorld } from './support/world-suite';

const TO = '447700900123';
const UNSTORABLE = (field: string) => ({
  status: 400,
  body: { status: 400, detail: `validation error: ${field} contains characters that cannot be stored` },
});
const INVALID_BODY = { status: 400, body: { status: 400, detail: 'invalid request body' } };
const NUL = 'a\u0000b';
const LONE_HIGH = 'a\uD800b';
const LONE_LOW = '\uDC00b';

interface Operation {
  requestBody?: unknown;
  security?: Record<string, string[]>[];
}

/** `{"a":{"a":...1...}}`, `levels` objects deep. Built as text: the point is what the server does with it. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('Input the database cannot hold, refused at the edge', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555038', (suite) => ({ http, world } = suite));

  const headers = (): Headers => headersOf(world.connected);
  const customerKey = (): Headers => ({ 'X-Api-Key': world.customer.apiKey });
  const outbox = async () => (await http.get('/sandbox/outbox', headers())).body as unknown[];
  const inbox = async () => (await http.get('/sandbox/inbox', headers())).body as unknown[];
  const instances = async () => (await http.get('/account/instances?pageSize=100', customerKey())).body as unknown;
  const statusAndBody = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

  describe('NUL characters and lone surrogates', () => {
    it('answers 400 naming the field on a text send, for NUL and for lone surrogates, and sends nothing', async () => {
      const before = await outbox();
      for (const text of [NUL, LONE_HIGH, LONE_LOW]) {
        expect(statusAndBody(await http.post('/messages/text', { to: TO, message: text }, headers()))).toEqual(UNSTORABLE('message'));
      }
      expect(statusAndBody(await http.post('/messages/text', { to: TO, text: NUL }, headers()))).toEqual(UNSTORABLE('text'));
      expect(await outbox()).toEqual(before);
      // A surrogate pair (an emoji) is ordinary text. It is sent before the test ends, so the next test's outbox is settled.
      const accepted = await http.post('/messages/text', { to: TO, message: 'ok \uD83D\uDE00' }, headers());
      expect(accepted.status).toBe(201);
      const { id } = accepted.body as { id: string };
      await eventually(outbox, (entries) => entries.some((entry) => (entry as { id?: string }).id === id));
    });

    it('names the nested field path (buttons[1].text)', async () => {
      const before = await outbox();
      const body = {
        to: TO,
        text: 'Pick',
        buttons: [
          { type: 'reply', id: 'y', text: 'Yes' },
          { type: 'reply', id: 'n', text: LONE_HIGH },
        ],
      };
      expect(statusAndBody(await http.post('/messages/buttons', body, headers()))).toEqual(UNSTORABLE('buttons[1].text'));
      expect(await outbox()).toEqual(before);
    });

    it('refuses an instance name on create and rename, and a customer name', async () => {
      const before = await instances();
      expect(statusAndBody(await http.post('/account/instances', { name: NUL, sandbox: true }, customerKey()))).toEqual(UNSTORABLE('name'));
      expect(statusAndBody(await http.put(`/account/instances/${world.connected.id}/name`, { name: LONE_HIGH }, customerKey()))).toEqual(
        UNSTORABLE('name'),
      );
      expect(await instances()).toEqual(before);
      const customers = (await http.get('/admin/customers?pageSize=100', adminHeaders())).body as unknown;
      expect(statusAndBody(await http.post('/admin/customers', { name: NUL }, adminHeaders()))).toEqual(UNSTORABLE('name'));
      expect((await http.get('/admin/customers?pageSize=100', adminHeaders())).body).toEqual(customers);
    });

    it('refuses a group name and carries nothing out on the network', async () => {
      const groups = (await http.get('/groups', headers())).body as unknown;
      const operations = await world.operations(world.connected);
      expect(statusAndBody(await http.post('/groups', { name: `Team ${NUL}`, participants: [TO] }, headers()))).toEqual(UNSTORABLE('name'));
      expect(await world.operations(world.connected)).toEqual(operations);
      expect((await http.get('/groups', headers())).body).toEqual(groups);
    });

    it('refuses a sandbox inbound text and nothing arrives', async () => {
      const before = await inbox();
      expect(statusAndBody(await http.post('/sandbox/inbound', { from: TO, type: 'text', text: LONE_LOW }, headers()))).toEqual(
        UNSTORABLE('text'),
      );
      expect(await inbox()).toEqual(before);
    });

    it('refuses a query parameter and a path parameter', async () => {
      expect(statusAndBody(await http.get('/account/instances?status=%00', customerKey()))).toEqual(UNSTORABLE('status'));
      expect(statusAndBody(await http.get('/account/instances/ins%00x', customerKey()))).toEqual(UNSTORABLE('id'));
      const before = await outbox();
      expect(statusAndBody(await http.post('/messages/a%00b/edit', { to: TO, text: 'changed' }, headers()))).toEqual(
        UNSTORABLE('messageId'),
      );
      expect(await outbox()).toEqual(before);
    });

    it('refuses an unstorable property name', async () => {
      expect(statusAndBody(await http.post('/messages/text', { to: TO, message: 'x', [NUL]: 1 }, headers()))).toEqual(
        UNSTORABLE('a\uFFFDb'),
      );
    });
  });

  describe('deeply nested bodies', () => {
    const credentialsFor = (path: string, operation: Operation): Headers => {
      if (path.startsWith('/admin')) return adminHeaders();
      const schemes = Object.keys(operation.security?.[0] ?? {});
      return schemes.includes('X-Instance-Id') ? headers() : customerKey();
    };

    it(`refuses bodies nested 5,000 levels deep, or 2,000 inside a field, on every body route`, async () => {
      const document = (await http.unchecked().get('/docs-json')).body as { paths: Record<string, Record<string, Operation>> };
      const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => operation.requestBody)
          .map(([method, operation]) => ({ method: method as 'post' | 'put', path, operation })),
      );
      expect(routes.length).toBeGreaterThan(80);
      const payloads = { topLevel: nestedObjects(5_000), inField: `{"to":"${TO}","message":${nestedArrays(2_000)}}` };
      const answers: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const { method, path, operation } of routes) {
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const requestHeaders = { ...credentialsFor(path, operation), 'Content-Type': 'application/json' };
        for (const [label, payload] of Object.entries(payloads)) {
          const key = `${method.toUpperCase()} ${path} ${label}`;
          answers[key] = statusAndBody(await http.unchecked().raw(method, url, payload, requestHeaders));
          expected[key] = INVALID_BODY;
        }
      }
      expect(answers).toEqual(expected);
      expect((await http.get('/health')).status).toBe(200);
    });

    it('takes 32 levels to validation and refuses 33 before it', async () => {
      const send = (levels: number) =>
        http.raw('post', '/messages/text', `{"to":"${TO}","message":"x","extra":${nestedObjects(levels - 1)}}`, {
          ...headers(),
          'Content-Type': 'application/json',
        });
      expect(statusAndBody(await send(32))).toEqual({
        status: 400,
        body: { status: 400, detail: 'validation error: property extra should not exist' },
      });
      expect(statusAndBody(await send(33))).toEqual(INVALID_BODY);
    });
  });
});
