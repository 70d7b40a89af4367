import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { requestLogging } from './logging';

/** A server whose only middleware is the request logging, writing JSON lines into `lines`. */
async function serve(
  level: string,
  handler: (url: string) => number,
): Promise<{ server: Server; url: string; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const root = pino({ level, base: { app: 'test' } }, destination);
  const middleware = requestLogging(root);
  const server = createServer((req, res) =>
    middleware(req, res, () => {
      res.statusCode = handler(req.url ?? '');
      res.end('{}');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
}

function get(url: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    })
      .on('error', reject)
      .end();
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('requestLogging', () => {
  it('writes one line per request and echoes the request id', async () => {
    const { server, url, lines } = await serve('info', (path) => (path === '/boom' ? 500 : 201));
    try {
      expect((await get(`${url}/inside`, { 'X-Request-Id': 'trace-1' }))['x-request-id']).toBe('trace-1');
      await get(`${url}/boom`);
      await get(`${url}/health`);
      await settle();
      expect(lines).toEqual([
        expect.objectContaining({
          level: 30,
          app: 'test',
          req: { id: 'trace-1', method: 'GET', url: '/inside' },
          res: { statusCode: 201 },
          responseTime: expect.any(Number),
          msg: 'request completed',
        }),
        expect.objectContaining({
          level: 50,
          req: expect.objectContaining({ url: '/boom' }),
          res: { statusCode: 500 },
          err: expect.objectContaining({ message: 'failed with status code 500' }),
          msg: 'request errored',
        }),
      ]);
      expect((lines[1].req as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      server.close();
    }
  });

  it('writes nothing for successful requests when the level is above info, but still reports 5xx; a 503 as a warning', async () => {
    const { server, url, lines } = await serve('warn', (path) => (path === '/boom' ? 500 : path === '/unavailable' ? 503 : 200));
    try {
      expect((await get(`${url}/quiet`))['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      await get(`${url}/boom`);
      await get(`${url}/unavailable`);
      await settle();
      expect(lines).toEqual([
        expect.objectContaining({ level: 50, res: { statusCode: 500 }, msg: 'request errored' }),
        expect.objectContaining({ level: 40, res: { statusCode: 503 }, msg: 'request answered 503 (not available)' }),
      ]);
      expect(lines[1]).not.toHaveProperty('err');
    } finally {
      server.close();
    }
  });
});
