import express, { type Express } from 'express';
import request from 'supertest';
import { indexRoutesByFirstSegment } from './route-index';

/** Registers the same app twice, one of them indexed, so every answer can be compared with plain Express. */
function build(indexed: boolean): Express {
  const app = express();
  const seen: string[] = [];
  app.use((req, _res, next) => {
    seen.push(req.path);
    next();
  });
  const answer = (name: string) => (req: express.Request, res: express.Response) =>
    res.json({ name, params: req.params, route: `${req.baseUrl}${(req.route as { path: string }).path}` });
  app.get('/chats/archived', answer('archived'));
  app.get('/chats/:chatId', answer('chat'));
  app.post('/chats/:chatId', answer('chat-post'));
  app.get('/session/status', answer('status'));
  app.get('/groups/:id', (req, res, next) => (req.params.id === 'skip' ? next() : answer('group')(req, res)));
  app.get('/:anything/first', answer('param-first'));
  app.get('/session/first', answer('after-param-first'));
  app.get('/groups/:id', answer('group-second'));
  app.use((_req, res) => {
    res.status(404).json({ name: 'not-found' });
  });
  if (indexed) indexRoutesByFirstSegment(app.router);
  app.locals.seen = seen;
  return app;
}

const cases: Array<[string, string]> = [
  ['GET', '/chats/archived'],
  ['GET', '/chats/123'],
  ['POST', '/chats/123'],
  ['GET', '/Session/Status'],
  ['GET', '/session/status/'],
  ['GET', '/session/first'],
  ['GET', '/other/first'],
  ['GET', '/groups/skip'],
  ['GET', '/groups/7'],
  ['GET', '/nowhere'],
  ['GET', '/'],
  ['DELETE', '/chats/123'],
  ['OPTIONS', '/chats/123'],
  ['HEAD', '/session/status'],
];

describe('indexRoutesByFirstSegment', () => {
  it.each(cases)('answers %s %s exactly as plain Express does', async (method, path) => {
    const call = (app: Express) => request(app)[method.toLowerCase() as 'get'](path);
    const [plain, indexed] = await Promise.all([call(build(false)), call(build(true))]);
    expect({ status: indexed.status, body: indexed.body, allow: indexed.headers.allow }).toEqual({
      status: plain.status,
      body: plain.body,
      allow: plain.headers.allow,
    });
  });

  it('picks the routes a request can reach by its first segment, keeping registration order within a segment', async () => {
    const app = build(true);
    expect((await request(app).get('/chats/archived')).body).toEqual({ name: 'archived', params: {}, route: '/chats/archived' });
    expect((await request(app).get('/groups/skip')).body).toEqual({ name: 'group-second', params: { id: 'skip' }, route: '/groups/:id' });
    // A route starting with a parameter is tried where it was registered: it still wins over the later static route.
    expect((await request(app).get('/session/first')).body).toEqual({ name: 'param-first', params: { anything: 'session' }, route: '/:anything/first' });
    expect(app.locals.seen).toEqual(['/chats/archived', '/groups/skip', '/session/first']);
  });

  it('replaces runs of routes by one layer each and leaves other layers in place', () => {
    const app = build(true);
    const stack = (app.router as unknown as { stack: Array<{ name: string; route?: unknown }> }).stack;
    expect(stack.map((layer) => (layer.route ? 'route' : layer.name))).toEqual(['<anonymous>', 'routeIndex', 'route', 'routeIndex', '<anonymous>']);
  });
});
