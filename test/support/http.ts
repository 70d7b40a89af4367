import request from 'supertest';
import type { Response, Test } from 'supertest';
import { expectErrorBody } from './openapi';

export type Headers = Record<string, string>;

interface HttpOptions {
  /** Check every response against the served OpenAPI document (needs `useServedOpenApi` first). */
  checkSpec?: boolean;
}

/**
 * A thin HTTP client over a running server; every call is a real request over loopback. Every error
 * response is checked to be exactly `{status, detail}`, and (by default) every response against the
 * OpenAPI document the server publishes.
 */
export class Http {
  constructor(
    private readonly baseUrl: string,
    private readonly options: HttpOptions = { checkSpec: true },
  ) {}

  /** The same client without the OpenAPI check, for requests to routes that deliberately do not exist. */
  unchecked(): Http {
    return new Http(this.baseUrl, { checkSpec: false });
  }

  get(path: string, headers: Headers = {}): Promise<Response> {
    return this.run(request(this.baseUrl).get(path).set(headers));
  }

  delete(path: string, headers: Headers = {}): Promise<Response> {
    return this.run(request(this.baseUrl).delete(path).set(headers));
  }

  post(path: string, body?: unknown, headers: Headers = {}): Promise<Response> {
    const call = request(this.baseUrl).post(path).set(headers);
    return this.run(body === undefined ? call : call.send(body as object));
  }

  put(path: string, body?: unknown, headers: Headers = {}): Promise<Response> {
    const call = request(this.baseUrl).put(path).set(headers);
    return this.run(body === undefined ? call : call.send(body as object));
  }

  /** Sends the payload bytes as given (malformed JSON, other content types). */
  raw(method: 'post' | 'put', path: string, payload: string, headers: Headers): Promise<Response> {
    return this.run(request(this.baseUrl)[method](path).set(headers).send(payload));
  }

  private async run(call: Test): Promise<Response> {
    const response = await call;
    if (response.status >= 400) {
      expectErrorBody(response, response.status, /\S/);
    }
    if (this.options.checkSpec !== false && response.headers['content-type']?.includes('json')) {
      expect(response).toSatisfyApiSpec();
    }
    return response;
  }
}
