import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import type { CredentialsBeforeBody } from '../auth/credentials-before-body';
import { bodyHandling } from './body-handling';

/** The key check is recorded, and refuses requests marked `X-Refuse`, as the real one refuses a bad key. */
function appWith(checked: string[]): express.Express {
  const credentials = {
    handler: () => (req: Request, res: Response, next: NextFunction) => {
      checked.push(req.path);
      if (req.headers['x-refuse']) res.status(401).json({ status: 401, detail: 'unauthorized' });
      else next();
    },
  } as unknown as CredentialsBeforeBody;
  const app = express();
  app.use(bodyHandling(credentials));
  app.all(/.*/, (req, res) => {
    res.json({ body: (req.body as unknown) ?? null });
  });
  app.use((error: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status ?? 500).json({ error: error.type });
  });
  return app;
}

describe('bodyHandling', () => {
  it('lets a request without a body through untouched, without the key check', async () => {
    const checked: string[] = [];
    const response = await request(appWith(checked)).get('/session/status');
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { body: null } });
    expect(checked).toEqual([]);
  });

  it('checks the key before reading the body, then refuses anything but JSON', async () => {
    const checked: string[] = [];
    const app = appWith(checked);
    const refused = await request(app).post('/messages/text').set('X-Refuse', '1').send({ to: 'x' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { status: 401, detail: 'unauthorized' } });
    const text = await request(app).post('/messages/text').set('Content-Type', 'text/plain').send('hello');
    expect({ status: text.status, body: text.body }).toEqual({ status: 400, body: { status: 400, detail: 'invalid request body' } });
    const parsed = await request(app).post('/messages/text').send({ to: 'x', message: 'hi' });
    expect({ status: parsed.status, body: parsed.body }).toEqual({ status: 200, body: { body: { to: 'x', message: 'hi' } } });
    expect(checked).toEqual(['/messages/text', '/messages/text', '/messages/text']);
  });

  it('allows large bodies on the media routes only, matched as Express matches a mount path', async () => {
    const app = appWith([]);
    const big = { data: 'a'.repeat(2 * 1024 * 1024) };
    for (const path of ['/messages/image', '/Messages/Image', '/messages/image/']) {
      expect((await request(app).post(path).send(big)).status).toBe(200);
    }
    for (const path of ['/messages/text', '/messages/imagery']) {
      const response = await request(app).post(path).send(big);
      expect({ status: response.status, body: response.body }).toEqual({ status: 413, body: { error: 'entity.too.large' } });
    }
  });

  it('passes a parse error on and refuses bodies nested too deeply', async () => {
    const app = appWith([]);
    const broken = await request(app).post('/messages/text').set('Content-Type', 'application/json').send('{"to":');
    expect({ status: broken.status, body: broken.body }).toEqual({ status: 400, body: { error: 'entity.parse.failed' } });
    let deep: unknown = 'leaf';
    for (let level = 0; level < 40; level += 1) deep = { deep };
    const nested = await request(app).post('/messages/text').send(deep as object);
    expect({ status: nested.status, body: nested.body }).toEqual({ status: 400, body: { status: 400, detail: 'invalid request body' } });
  });
});
