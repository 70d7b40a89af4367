import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { API_POLICY, SECURITY_HEADER_POLICIES, securityHeaders } from './security-headers';

function appWith(...args: Parameters<typeof securityHeaders>): express.Express {
  const app = express();
  app.use(securityHeaders(...args));
  app.get(/.*/, (_req, res) => {
    res.json({});
  });
  return app;
}

describe('securityHeaders', () => {
  it('gives a path prefix its own policy and cache rule, and the API policy to everything else', async () => {
    const app = appWith([
      { prefix: '/dashboard', options: { contentSecurityPolicy: { directives: { scriptSrc: ["'self'"] } } }, cacheable: true },
    ]);
    const page = await request(app).get('/dashboard/assets/app.js');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBeUndefined();
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const lookalike = await request(app).get('/dashboardx');
    const api = await request(app).get('/account/instances');
    for (const response of [lookalike, api]) {
      expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it.each([
    ['/account/instances', undefined],
    ['/docs', SECURITY_HEADER_POLICIES[0]],
    ['/dashboard/index.html', SECURITY_HEADER_POLICIES[1]],
  ])('sets on %s exactly the headers helmet itself sets for its policy', async (path, policy) => {
    const ours = await request(appWith()).get(path);
    const reference = express();
    reference.disable('x-powered-by');
    reference.use(helmet(policy?.options ?? API_POLICY));
    reference.get(/.*/, (_req, res) => {
      if (!policy?.cacheable) res.setHeader('Cache-Control', 'no-store');
      res.json({});
    });
    const theirs = await request(reference).get(path);
    const withoutDate = ({ date: _date, ...headers }: Record<string, string>) => headers;
    expect(withoutDate(ours.headers)).toEqual(withoutDate(theirs.headers));
  });
});
