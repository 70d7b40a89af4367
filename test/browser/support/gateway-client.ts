import { testEnv } from '../../support/environment';

/** What a test needs to act as a customer with one paired sandbox instance. */
export interface SandboxAccount {
  customer: { id: string; name: string; apiKey: string };
  instance: { id: string; name: string; apiKey: string };
  /** The phone the sandbox instance is paired to. */
  phone: string;
  /** `X-Api-Key` (the customer key) and `X-Instance-Id`, for instance endpoints. */
  headers: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** A small fetch client for setting up state through the real API (the browser tier has no supertest). */
export class GatewayClient {
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return this.request('POST', path, body, headers);
  }

  /** A new customer (through the admin API) with one sandbox instance paired to `phone` and connected. */
  async sandboxAccount(name: string, phone: string): Promise<SandboxAccount> {
    const customer = await this.expectStatus(201, this.post('/admin/customers', { name }, { 'X-Admin-Key': testEnv().ADMIN_API_KEY }));
    const customerKey = { 'X-Api-Key': (customer as SandboxAccount['customer']).apiKey };
    const instance = await this.expectStatus(201, this.post('/account/instances', { name: 'browser', sandbox: true }, customerKey));
    const headers = { ...customerKey, 'X-Instance-Id': (instance as SandboxAccount['instance']).id };
    await this.expectStatus(200, this.post('/sandbox/pair', { phone }, headers));
    await this.waitFor(async () => {
      const status = await this.get('/session/status', headers);
      return status.status === 200 && (status.body as { isConnected?: boolean }).isConnected === true;
    }, `instance ${headers['X-Instance-Id']} to connect`);
    return {
      customer: customer as SandboxAccount['customer'],
      instance: instance as SandboxAccount['instance'],
      phone,
      headers,
    };
  }

  async expectStatus(status: number, call: Promise<ApiResponse>): Promise<unknown> {
    const response = await call;
    if (response.status !== status) {
      throw new Error(`expected HTTP ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
    }
    return response.body;
  }

  async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
