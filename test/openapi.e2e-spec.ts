import { startApi, type RunningApi } from './support/api-harness';
import { Http } from './support/http';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
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

  it('documents a success response on every operation and a 400 wherever a body, query or path parameter is taken', () => {
    for (const { path, method, operation } of operations()) {
      const codes = Object.keys(operation.responses);
      expect({ path, method, success: codes.some((code) => code.startsWith('2')) }).toEqual({ path, method, success: true });
      const takesInput =
        operation.requestBody || operation.parameters?.some((parameter) => parameter.in === 'path' || parameter.in === 'query');
      if (takesInput) expect({ path, method, has400: codes.includes('400') }).toEqual({ path, method, has400: true });
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

  it('requires no header parameter other than the security schemes, and names no parameter twice in one operation', () => {
    const schemeHeaders = new Set(Object.values(document.components.securitySchemes).map(({ name }) => name.toLowerCase()));
    const requiredHeaders = operations().flatMap(({ path, method, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'header' && parameter.required && !schemeHeaders.has(parameter.name.toLowerCase()))
        .map((parameter) => `${method.toUpperCase()} ${path}: ${parameter.name}`),
    );
    const repeatedNames = operations().flatMap(({ path, method, operation }) => {
      const names = (operation.parameters ?? []).map((parameter) => parameter.name.toLowerCase());
      return names.filter((name, index) => names.indexOf(name) !== index).map((name) => `${method.toUpperCase()} ${path}: ${name}`);
    });
    expect({ requiredHeaders, repeatedNames }).toEqual({ requiredHeaders: [], repeatedNames: [] });
  });

  it('declares Idempotency-Key once, optional, on every send and message operation', () => {
    const sends = operations().filter(({ path, method }) => method === 'post' && path.startsWith('/messages/'));
    expect(sends.length).toBeGreaterThanOrEqual(19);
    for (const { path, operation } of sends) {
      const headers = (operation.parameters ?? []).filter((parameter) => parameter.in === 'header');
      expect({ path, headers }).toEqual({
        path,
        headers: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: expect.stringContaining('Repeat a request safely'),
            schema: { type: 'string' },
          },
        ],
      });
    }
  });

  it('declares Last-Event-ID once, optional, on the event stream', () => {
    expect(document.paths['/events/stream'].get.parameters?.filter((parameter) => parameter.in === 'header')).toEqual([
      { name: 'Last-Event-ID', in: 'header', required: false, description: expect.any(String), schema: { type: 'integer', minimum: 0 } },
    ]);
  });

  it('says that buttons and lists are beta in their summary and description', () => {
    for (const path of ['/messages/buttons', '/messages/list']) {
      const { summary, description } = document.paths[path].post;
      expect({ path, summary, description }).toEqual({
        path,
        summary: expect.stringMatching(/\(beta\)$/),
        description: expect.stringContaining('Beta: relies on network behaviour that is not an official contract'),
      });
    }
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await fetch(`${api.url}/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger-ui');
  });
});
