import { Client } from 'pg';
import type { AppConfig } from '@app/config';
import { startApi, type RunningApi } from './api-harness';
import { testEnv } from './environment';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './fixtures';
import { Http } from './http';
import { headersOf, waitForStatus } from './instance-world';
import { useServedOpenApi } from './openapi';
import { ownsAllShards, spawnApp, type AppProcess } from './processes';
import { FakeNetworkProcess } from './protocol-network/fake-network';

/** Someone on the network: a contact of the fake network and of every sandbox twin. */
export interface NetworkPerson {
  phone: string;
  name: string;
  /** The LID user JID, e.g. `123456789012345@lid`. */
  lid: string;
}

export interface RealNetworkWorldOptions {
  /** The customer the suite's instances belong to. */
  customer: string;
  people: NetworkPerson[];
  /** More of the worker's environment (settings under test). */
  workerEnv?: Record<string, string>;
  /** More of the fake network's environment (e.g. `FAKE_NETWORK_DEVICE_PEERS`). */
  networkEnv?: Record<string, string>;
  api?: Partial<AppConfig>;
}

/**
 * What a real-network suite runs against: the fake WhatsApp network as its own process, the API in process and a built
 * worker that reaches the network through the test seam, one customer, and the suite's people as the network's contacts.
 */
export class RealNetworkWorld {
  private constructor(
    readonly network: FakeNetworkProcess,
    readonly api: RunningApi,
    readonly worker: AppProcess,
    readonly http: Http,
    readonly customer: Customer,
    private readonly people: NetworkPerson[],
  ) {}

  static async start(options: RealNetworkWorldOptions): Promise<RealNetworkWorld> {
    const network = await FakeNetworkProcess.start(options.networkEnv);
    const [api, worker] = await Promise.all([startApi(options.api), spawnApp('worker', { ...network.workerEnv(), ...options.workerEnv })]);
    // Until then, an instance on a shard an earlier suite's killed worker still holds has no session (503).
    await ownsAllShards(worker, api.config.shardCount);
    const http = new Http(api.url);
    await useServedOpenApi(api.url);
    const customer = await createCustomer(http, options.customer);
    for (const person of options.people) await network.addContact(person.phone, person.name, person.lid);
    return new RealNetworkWorld(network, api, worker, http, customer, options.people);
  }

  /** A new real instance of `phone`, paired by QR through the fake phone; resolves once it is connected. */
  async pairReal(phone: string, name = `real ${phone}`): Promise<{ instance: CreatedInstance; deviceJid: string; lid: string }> {
    const instance = await createInstance(this.http, this.customer.apiKey, { name, sandbox: false });
    const qr = await this.http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid, lid } = await this.network.scan((qr.body as { code: string }).code, phone);
    await waitForStatus(this.http, instance, (status) => status.isConnected);
    return { instance, deviceJid, lid };
  }

  /** A sandbox instance of `phone` with the same people as contacts, paired; resolves once it is connected. */
  async pairSandbox(phone: string, name = 'sandbox twin'): Promise<CreatedInstance> {
    const instance = await createInstance(this.http, this.customer.apiKey, { name, sandbox: true });
    expect((await this.http.post('/sandbox/pair', { phone }, headersOf(instance))).status).toBe(200);
    for (const person of this.people) {
      const added = await this.http.post(
        '/sandbox/contacts',
        { id: `+${person.phone}`, pushName: person.name, lid: person.lid },
        headersOf(instance),
      );
      expect(added.status).toBe(201);
    }
    await waitForStatus(this.http, instance, (status) => status.isConnected);
    return instance;
  }

  async stop(): Promise<void> {
    await Promise.all([this.api.close(), this.worker.stop()]);
    await this.network.stop();
  }
}

/** The instance's stored network credentials and Signal keys, counted. */
export async function storedAuth(instance: CreatedInstance): Promise<{ credentials: number; keys: number }> {
  const db = new Client({ connectionString: testEnv().DATABASE_URL });
  await db.connect();
  try {
    const [credentials, keys] = await Promise.all([
      db.query<{ count: string }>('SELECT count(*) FROM network_credentials WHERE instance_id = $1', [instance.id]),
      db.query<{ count: string }>('SELECT count(*) FROM network_keys WHERE instance_id = $1', [instance.id]),
    ]);
    return { credentials: Number(credentials.rows[0].count), keys: Number(keys.rows[0].count) };
  } finally {
    await db.end();
  }
}
