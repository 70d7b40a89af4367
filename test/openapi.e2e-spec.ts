import { startApi, type RunningApi } from './support/api-harness';
import { Http } from './support/http';

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  requestBody?: unknown;
}

describe('OpenAPI document', () => {
  let api: RunningApi;
  let document: {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
  };

  beforeAll(async () => {
    api = await startApi();
    document = (await new Http(api.url, { checkSpec: false }).get('/docs-json')).body as typeof document;
  });

  afterAll(async () => {
    await api.close();
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );

  it('is OpenAPI 3 with version 2.0.0', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('2.0.0');
  });

  it('declares the three API-key security schemes and the dashboard session cookie', () => {
    expect(document.components.securitySchemes).toEqual({
      'X-Api-Key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      'X-Instance-Id': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Instance-Id' }),
      'X-Admin-Key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Admin-Key' }),
      DashboardSession: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'mgw_session' }),
    });
  });

  /** Routes a person uses before any credential exists: sign-in and one-time links (rate-limited per address). */
  const OPEN_ROUTES = ['/auth/sign-in', '/auth/invites/{token}', '/auth/invites/{token}/accept'];

  it('documents a 401 and 429 with the error schema on every authenticated operation', () => {
    const authenticated = operations().filter(({ path }) => !path.startsWith('/health') && !OPEN_ROUTES.includes(path));
    expect(authenticated.length).toBeGreaterThan(10);
    for (const { path, method, operation } of authenticated) {
      // A key, or on customer and instance routes alternatively the dashboard session.
      const expected = path.startsWith('/admin') || path.startsWith('/auth') ? 1 : 2;
      expect({ path, method, security: operation.security?.length ?? 0 }).toEqual({ path, method, security: expected });
      for (const status of ['401', '429']) {
        expect({ path, method, status, schema: operation.responses[status]?.content?.['application/json']?.schema?.$ref }).toEqual({
          path,
          method,
          status,
          schema: '#/components/schemas/ErrorBodyDto',
        });
      }
    }
  });

  it('documents a success response on every operation and a 400 wherever a body is taken', () => {
    for (const { path, method, operation } of operations()) {
      const codes = Object.keys(operation.responses);
      expect({ path, method, success: codes.some((code) => code.startsWith('2')) }).toEqual({ path, method, success: true });
      if (operation.requestBody) expect({ path, method, has400: codes.includes('400') }).toEqual({ path, method, has400: true });
    }
  });

  it('requires X-Instance-Id together with X-Api-Key on instance endpoints', () => {
    expect(document.paths['/instance/settings'].get.security).toEqual([
      { 'X-Api-Key': [], 'X-Instance-Id': [] },
      { DashboardSession: [], 'X-Instance-Id': [] },
    ]);
    expect(document.paths['/account/instances/{id}'].get.security).toEqual([{ 'X-Api-Key': [] }, { DashboardSession: [] }]);
  });

  it('documents the dashboard routes under the Dashboard tag, open ones without security but with 429', () => {
    const dashboard = operations().filter(({ operation }) => (operation as { tags?: string[] }).tags?.includes('Dashboard'));
    expect(dashboard.map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort()).toEqual([
      'DELETE /account/users/{userId}',
      'GET /account/users',
      'GET /auth/invites/{token}',
      'GET /auth/session',
      'POST /account/users',
      'POST /auth/invites/{token}/accept',
      'POST /auth/sign-in',
      'POST /auth/sign-out',
      'POST /auth/sign-out-everywhere',
    ]);
    for (const path of OPEN_ROUTES) {
      for (const operation of Object.values(document.paths[path])) {
        expect({ path, security: operation.security }).toEqual({ path, security: undefined });
        expect(Object.keys(operation.responses)).toContain('429');
      }
    }
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await fetch(`${api.url}/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger-ui');
  });
});
