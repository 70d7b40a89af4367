import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { LOOPBACK_MEDIA, useInstanceWorld } from './support/world-suite';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n% a tiny document\n');

describe('media sends', () => {
  let http: Http;
  let instance: CreatedInstance;
  useInstanceWorld(
    '1555044',
    (suite) =>
      ({
        http,
        world: { connected: instance },
      } = suite),
    LOOPBACK_MEDIA,
  );
  let files: Server;
  let filesUrl: string;
  let db: Client;
  const headers = () => headersOf(instance);
  const outbox = async () =>
    (await http.get('/sandbox/outbox', headers())).body as { id: string; type: string; content: Record<string, unknown> }[];

  beforeAll(async () => {
    files = createServer((req, res) => {
      if (req.url === '/doc.pdf') {
        res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': PDF.length });
        res.end(PDF);
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('sends inline base64 media and keeps the bytes only until the network has them', async () => {
    const sent = await http.post(
      '/messages/image',
      { to: '447700900123', data: PNG.toString('base64'), mimeType: 'image/png', caption: 'pixel' },
      headers(),
    );
    expect(sent.status).toBe(201);
    const { id } = sent.body as { id: string };
    const entries = await eventually(outbox, (all) => all.some((entry) => entry.id === id));
    expect(entries.find((entry) => entry.id === id)).toEqual({
      id,
      to: '447700900123@s.whatsapp.net',
      type: 'image',
      content: {
        caption: 'pixel',
        media: { mimeType: 'image/png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') },
      },
      receivedAt: expect.any(String),
    });
    const blobs = await eventually(
      async () =>
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM media_blobs WHERE instance_id = $1', [instance.id])).rows[0].n,
      (n) => n === 0,
    );
    expect(blobs).toBe(0);
  });

  it('fetches a URL when sending', async () => {
    const sent = await http.post('/messages/document', { to: '447700900123', url: `${filesUrl}/doc.pdf`, filename: 'doc.pdf' }, headers());
    expect(sent.status).toBe(201);
    const { id } = sent.body as { id: string };
    const entries = await eventually(outbox, (all) => all.some((entry) => entry.id === id));
    expect(entries.find((entry) => entry.id === id)?.content).toEqual({
      filename: 'doc.pdf',
      media: { mimeType: 'application/pdf', size: PDF.length, sha256: createHash('sha256').update(PDF).digest('hex') },
    });
  });

  it('reports a URL that cannot be fetched as a failed send', async () => {
    const sent = await http.post('/messages/image', { to: '447700900123', url: `${filesUrl}/missing.png` }, headers());
    expect(sent.status).toBe(201);
    const { id } = sent.body as { id: string };
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'message_status' && event.data.id === id),
    );
    expect(log.find((event) => event.eventType === 'message_status' && event.data.id === id)?.data).toEqual({
      id,
      chatId: '447700900123@s.whatsapp.net',
      status: 'failed',
      error: expect.stringMatching(/^media could not be fetched: 127\.0\.0\.1:\d+ answered 404$/),
    });
    expect((await outbox()).some((entry) => entry.id === id)).toBe(false);
  });

  it.each([
    ['http://10.0.0.1/a.png', '10.0.0.1 is not a public address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is not a public address'],
    ['http://[::1]/a.png', '::1 is not a public address'],
  ])('refuses %s before storing anything', async (url, reason) => {
    expectErrorBody(
      await http.post('/messages/image', { to: '447700900123', url }, headers()),
      400,
      `validation error: url must point to a public http(s) address: ${reason}`,
    );
  });

  it('requires exactly one of url and data', async () => {
    expectErrorBody(
      await http.post('/messages/image', { to: '447700900123' }, headers()),
      400,
      'validation error: url or data is required',
    );
    expectErrorBody(
      await http.post('/messages/image', { to: '447700900123', url: `${filesUrl}/a.png`, data: PNG.toString('base64') }, headers()),
      400,
      'validation error: url and data cannot both be given',
    );
  });
});
