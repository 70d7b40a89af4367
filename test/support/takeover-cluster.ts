import { shardOf } from '@app/contracts';
import { startApi, type RunningApi } from './api-harness';
import { subPrefix } from './environment';
import { eventLog, eventually } from './event-log';
import { createCustomer, createInstance, type CreatedInstance } from './fixtures';
import { Http } from './http';
import { headersOf, waitForStatus } from './instance-world';
import { spawnApp, type AppProcess } from './processes';
import { FakeNetworkProcess } from './protocol-network/fake-network';

/** The takeover suites' shard lease: short, so a dead owner's shards move within seconds. */
export const LEASE_MS = 8_000;
export const SHARDS = 4;
/** The contact every takeover suite talks to. */
export const ANN_PHONE = '447700900123';

/** The fake network, the API and two workers sharing the shards, each owning some; `workers` is the live list. */
export interface TakeoverCluster {
  network: FakeNetworkProcess;
  http: Http;
  workers: AppProcess[];
  /** What a further worker of this cluster starts with. */
  workerEnv: Record<string, string>;
}

/** The shards a worker owns now (none when it does not answer). */
export async function shardsOf(worker: AppProcess): Promise<number[]> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as { shards: number[] }).shards : [];
  } catch {
    return [];
  }
}

/** The worker of `workers` that owns the instance's shard, and that shard. */
export async function ownerOf(workers: AppProcess[], instance: CreatedInstance): Promise<{ owner: AppProcess; shard: number }> {
  const shard = shardOf(instance.id, SHARDS);
  const owned = await Promise.all(workers.map(shardsOf));
  return { owner: workers[owned.findIndex((shards) => shards.includes(shard))], shard };
}

/** The `message` events logged for an instance, their data. */
export const messagesOf = async (instance: CreatedInstance) =>
  (await eventLog(instance.id)).filter((event) => event.eventType === 'message').map((event) => event.data);

/**
 * Starts the cluster before the suite (contact Ann on the network, both workers owning shards) and stops all of it after;
 * `ready` receives it once started.
 */
export function useTakeoverCluster(name: string, ready: (cluster: TakeoverCluster) => void): void {
  const workers: AppProcess[] = [];
  let network: FakeNetworkProcess | undefined;
  let api: RunningApi | undefined;

  beforeAll(async () => {
    const prefix = subPrefix(name);
    network = await FakeNetworkProcess.start();
    api = await startApi({ queuePrefix: prefix, shardCount: SHARDS });
    const http = new Http(api.url, { checkSpec: false });
    const workerEnv = { ...network.workerEnv(), QUEUE_PREFIX: prefix, SHARD_LEASE_MS: String(LEASE_MS), SHARD_COUNT: String(SHARDS) };
    workers.push(...(await Promise.all([spawnApp('worker', workerEnv), spawnApp('worker', workerEnv)])));
    await eventually(
      async () => Promise.all(workers.map(shardsOf)),
      (owned) => owned.flat().length === SHARDS && owned.every((shards) => shards.length > 0),
      20_000,
    );
    await network.addContact(ANN_PHONE, 'Ann', '123456789012345@lid');
    ready({ network, http, workers, workerEnv });
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.close();
    await network?.stop();
  });
}

/** A real (not sandbox) instance of a new customer, paired by scanning its QR code as phone `me`; connected. */
export async function pairedRealInstance(
  { http, network }: TakeoverCluster,
  names: { customer: string; instance: string },
  me: string,
): Promise<{ instance: CreatedInstance; deviceJid: string }> {
  const customer = await createCustomer(http, names.customer);
  const instance = await createInstance(http, customer.apiKey, { name: names.instance, sandbox: false });
  const qr = await http.get('/session/qr/text', headersOf(instance));
  expect(qr.status).toBe(200);
  const { deviceJid } = await network.scan((qr.body as { code: string }).code, me);
  await waitForStatus(http, instance, (status) => status.isConnected);
  return { instance, deviceJid };
}
