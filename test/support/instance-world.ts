import { customerWithSession, type DashboardSession } from './dashboard';
import { eventually } from './event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './fixtures';
import type { Headers, Http } from './http';

export type Status = { isConnected: boolean; isLoggedIn: boolean; deviceId: string };

export const headersOf = (instance: CreatedInstance): Headers => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

/** Instances of one customer in every state an instance endpoint must tell apart, plus a stranger customer. */
export interface InstanceWorld {
  http: Http;
  customer: Customer;
  stranger: Customer;
  /** A signed-in dashboard session of the stranger's owner: cross-tenant checks with session auth use it. */
  strangerSession: DashboardSession;
  /** An instance of the stranger, connected: cross-tenant checks use it. */
  strangerInstance: CreatedInstance;
  /** Never paired. */
  unpaired: CreatedInstance;
  /** Paired, then logged out from the phone. */
  loggedOut: CreatedInstance;
  /** Paired, link offline. */
  offline: CreatedInstance;
  /** Connected; only ever sent requests that must be refused. */
  refused: CreatedInstance;
  /** Connected; for requests that must succeed. */
  connected: CreatedInstance;
  /** The account (user JID) of an instance, from its paired phone. */
  self(instance: CreatedInstance): string;
  /** The operations the simulated network carried out for the instance. */
  operations(instance: CreatedInstance): Promise<{ name: string; args: Record<string, unknown>; at: string }[]>;
}

/** The arguments of the operations named `name` the simulated network carried out for the instance, in order. */
export async function operationsNamed(world: InstanceWorld, instance: CreatedInstance, name: string): Promise<Record<string, unknown>[]> {
  return (await world.operations(instance)).filter((operation) => operation.name === name).map((operation) => operation.args);
}

export function waitForStatus(http: Http, instance: CreatedInstance, check: (status: Status) => boolean): Promise<Status> {
  return eventually(async () => (await http.get('/session/status', headersOf(instance))).body as Status, check);
}

/** A new sandbox instance paired to `phone`, with its link up. */
export async function pairedInstance(http: Http, customer: Customer, phone: string): Promise<CreatedInstance> {
  const instance = await createInstance(http, customer.apiKey);
  const paired = await http.post('/sandbox/pair', { phone }, headersOf(instance));
  if (paired.status !== 200) throw new Error(`pairing failed: ${paired.status} ${JSON.stringify(paired.body)}`);
  await waitForStatus(http, instance, (status) => status.isConnected);
  return instance;
}

/** Builds the world; phones are derived from `prefix` (7 digits) so parallel suites never share a number. */
export async function createInstanceWorld(http: Http, prefix: string): Promise<InstanceWorld> {
  const [customer, { customer: stranger, session: strangerSession }] = await Promise.all([
    createCustomer(http, `${prefix} Co`),
    customerWithSession(http, `${prefix} Stranger`),
  ]);
  const phone = (n: number) => `${prefix}${String(n).padStart(4, '0')}`;
  const phones = new Map<string, string>();
  const paired = async (owner: Customer, n: number) => {
    const instance = await pairedInstance(http, owner, phone(n));
    phones.set(instance.id, phone(n));
    return instance;
  };
  const [unpaired, loggedOut, offline, refused, connected, strangerInstance] = await Promise.all([
    createInstance(http, customer.apiKey),
    paired(customer, 1),
    paired(customer, 2),
    paired(customer, 3),
    paired(customer, 4),
    paired(stranger, 5),
  ]);
  const loggedOutNow = await http.post('/sandbox/logout', undefined, headersOf(loggedOut));
  const offlineNow = await http.post('/sandbox/connection', { state: 'offline' }, headersOf(offline));
  if (loggedOutNow.status !== 204 || offlineNow.status !== 204) throw new Error('could not take instances down');
  await Promise.all([
    waitForStatus(http, loggedOut, (status) => !status.isLoggedIn),
    waitForStatus(http, offline, (status) => !status.isConnected && status.isLoggedIn),
  ]);
  return {
    http,
    customer,
    stranger,
    strangerSession,
    strangerInstance,
    unpaired,
    loggedOut,
    offline,
    refused,
    connected,
    self: (instance) => `${phones.get(instance.id) ?? ''}@s.whatsapp.net`,
    operations: async (instance) => {
      const response = await http.get('/sandbox/operations', headersOf(instance));
      if (response.status !== 200) throw new Error(`operations: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body as { name: string; args: Record<string, unknown>; at: string }[];
    },
  };
}
