import jestOpenAPI from 'jest-openapi';
// Before any check: validators compiled once per documented response, not once per response checked.
import './openapi-validator-cache';
import request from 'supertest';
import type { Response } from 'supertest';

/** Loads the server's own OpenAPI document into jest-openapi, so `toSatisfyApiSpec` checks against it. */
export async function useServedOpenApi(baseUrl: string): Promise<Record<string, unknown>> {
  const response = await request(baseUrl).get('/docs-json');
  const document = response.body as Record<string, unknown>;
  jestOpenAPI(document as unknown as Parameters<typeof jestOpenAPI>[0]);
  return document;
}

/** Error bodies are exactly `{status, detail}`, with the response's own status. */
export function expectErrorBody(response: Response, status: number, detail: string | RegExp): void {
  expect({ status: response.status, keys: Object.keys(response.body as object).sort() }).toEqual({ status, keys: ['detail', 'status'] });
  const body = response.body as { status: number; detail: string };
  expect(body.status).toBe(status);
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else expect(body.detail).toMatch(detail);
}
