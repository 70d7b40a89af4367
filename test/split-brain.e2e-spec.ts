import { Client } from 'pg';
import { shardOf } from '@app/contracts';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess, type DeviceLink } from './support/protocol-network/fake-network';
import { messagesOf, shardsOf } from './support/takeover-cluster';

/**
 * Long enough that the frozen owner's own clock still gives it its lease when it resumes (its local deadline is at least
 * 80 % of this minus a renewal period, 14 s, away), so it acts as an owner would whose lease PostgreSQL gave away behind
 * its back. Frozen past its local deadline instead, it would find out from its own clock first and close before acting.
 */
const LEASE_MS = 30_000;
/**
 * Two shards, the instance in shard 0: when the frozen owner comes back, the new owner is over its share and hands over
 * its highest-numbered shard (1), so shard 0 stays where the takeover put it until the test moves it.
 */
const SHARDS = 2;
const SHARD = 0;
const ME = '447700900300';
const ANN_PHONE = '447700900123';
const BOB_PHONE = '447700900124';
/** What the auth state logs when PostgreSQL refused a credential or Signal key write (baileys-session.ts). */
const KEY_WRITE_REFUSED = /a credential or key write was refused/;
const DECRYPT_FAILURES = /Bad MAC|No session|Invalid PreKey|failed to decrypt/;

/**
 * What PostgreSQL sees when a worker's renewals and heartbeats stop reaching it: its lease on `shard` and its membership
 * expire. Returns the worker that held the lease.
 */
async function expireLeaseOf(scope: string, shard: number): Promise<string> {
  const client = new Client({ connectionString: testEnv().DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ worker_id: string }>(
      `UPDATE shard_leases SET expires_at = now() - interval '1 second' WHERE scope = $1 AND shard = $2 RETURNING worker_id`,
      [scope, shard],
    );
    await client.query(`UPDATE shard_workers SET expires_at = now() - interval '1 second' WHERE scope = $1 AND id = $2`, [
      scope,
      rows[0].worker_id,
    ]);
    return rows[0].worker_id;
  } finally {
    await client.end();
  }
}

/** The instance's stored Signal sessions (one row per peer device), as PostgreSQL holds them. */
async function sessionRows(instanceId: string): Promise<{ keyId: string; value: string; updatedAt: string }[]> {
  const client = new Client({ connectionString: testEnv().DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ keyId: string; value: string; updatedAt: string }>(
      `SELECT key_id AS "keyId", value, updated_at::text AS "updatedAt" FROM network_keys
       WHERE instance_id = $1 AND type = 'session' ORDER BY key_id`,
      [instanceId],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Stanzas a connection sent outside its own window (before its login or after the server stopped taking it). */
const actedOutside = (link: DeviceLink) => link.stanzas.filter((seq) => seq < link.login || (link.ended !== undefined && seq > link.ended));

/**
 * Split brain with the real driver (issue 23, goal 7). The owner of a connected instance freezes (SIGSTOP: its renewals
 * stop, its socket stays open) and its lease passes on in PostgreSQL while its own clock still grants it; a message
 * reaches that socket meanwhile. The other worker takes
 * the shard over, logs the device in (the network replaces the frozen connection) and talks to the contact, ratcheting
 * the Signal session past what the frozen owner holds in memory. Then the owner resumes and handles the message still in
 * its socket: Baileys decrypts it with the old session and writes that session back. Without fencing that write lands
 * over the new owner's, and the next session loaded from PostgreSQL reuses a sending chain the contact already consumed
 * (the contact cannot decrypt). With fencing PostgreSQL refuses it and the owner closes its session.
 */
describe('split brain: a frozen owner resumes after its shard was taken over (real driver, fake network)', () => {
  let network: FakeNetworkProcess;
  let api: RunningApi;
  let http: Http;
  const workers: AppProcess[] = [];
  let workerEnv: Record<string, string> = {};
  let prefix = '';

  beforeAll(async () => {
    prefix = subPrefix('split');
    network = await FakeNetworkProcess.start();
    api = await startApi({ queuePrefix: prefix, shardCount: SHARDS });
    http = new Http(api.url, { checkSpec: false });
    workerEnv = { ...network.workerEnv(), QUEUE_PREFIX: prefix, SHARD_LEASE_MS: String(LEASE_MS), SHARD_COUNT: String(SHARDS) };
    workers.push(...(await Promise.all([spawnApp('worker', workerEnv), spawnApp('worker', workerEnv)])));
    await eventually(
      async () => Promise.all(workers.map(shardsOf)),
      (owned) => owned.every((shards) => shards.length === 1),
      20_000,
    );
    await network.addContact(ANN_PHONE, 'Ann', '123456789012345@lid');
    await network.addContact(BOB_PHONE, 'Bob', '123456789012346@lid');
  });

  afterAll(async () => {
    // SIGKILL ends a stopped process too.
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.close();
    await network?.stop();
  });

  /**
   * Sends a text through the API; what the contact's phone made of it (decrypted, or its error) once it arrived, or
   * only the API's status when the API refused the send.
   */
  async function sendTo(instance: CreatedInstance, phone: string, text: string) {
    const sent = await http.post('/messages/text', { to: phone, message: text }, headersOf(instance));
    if (sent.status !== 201) return { status: sent.status, body: sent.body };
    const id = (sent.body as { id: string }).id;
    const inbox = await eventually(
      () => network.inbox(phone),
      (entries) => entries.some((entry) => entry.id === id),
    );
    const received = inbox.find((entry) => entry.id === id)!;
    return {
      status: sent.status,
      text: (received.message?.extendedTextMessage as { text?: string } | undefined)?.text ?? null,
      error: received.error ?? null,
    };
  }

  /** A contact's message to the device, waited for in the instance's event log (recorded after its session was stored). */
  async function receiveFrom(instance: CreatedInstance, phone: string, deviceJid: string, text: string): Promise<void> {
    await network.sendFromContact(phone, deviceJid, { conversation: text });
    await eventually(
      () => messagesOf(instance),
      (messages) => messages.some((message) => message.text === text),
    );
  }

  /** A contact's message to the device: 'recorded' once in the event log, or 'undecryptable' once the worker logs so. */
  async function receivedOrUndecryptable(instance: CreatedInstance, worker: AppProcess, phone: string, deviceJid: string, text: string) {
    const logBefore = worker.output().length;
    const { id } = await network.sendFromContact(phone, deviceJid, { conversation: text });
    const seen = await eventually(
      async () => ({
        recorded: (await messagesOf(instance)).some((message) => message.text === text),
        undecryptable: worker
          .output()
          .slice(logBefore)
          .split('\n')
          .some((line) => line.includes(id) && /decrypt/i.test(line)),
      }),
      ({ recorded, undecryptable }) => recorded || undecryptable,
    );
    return seen.recorded ? 'recorded' : 'undecryptable';
  }

  it("refuses the stale owner's writes and closes its session; the successor's works; every later message decrypts", async () => {
    const customer = await createCustomer(http, 'Split Brain Co');
    let instance = await createInstance(http, customer.apiKey, { name: 'split brain', sandbox: false });
    for (let attempt = 0; shardOf(instance.id, SHARDS) !== SHARD; attempt += 1) {
      if (attempt === 20) throw new Error(`no instance id fell in shard ${SHARD}`);
      instance = await createInstance(http, customer.apiKey, { name: `split brain ${attempt}`, sandbox: false });
    }
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid } = await network.scan((qr.body as { code: string }).code, ME);
    await waitForStatus(http, instance, (status) => status.isConnected);

    // Sessions in both directions, ratcheted in turn: the owner's memory now holds Ann's session as PostgreSQL does.
    for (const round of [1, 2]) {
      expect(await sendTo(instance, ANN_PHONE, `before ${round}`)).toEqual({ status: 201, text: `before ${round}`, error: null });
      await receiveFrom(instance, ANN_PHONE, deviceJid, `from Ann before ${round}`);
    }

    const owned = await Promise.all(workers.map(shardsOf));
    const owner = workers[owned.findIndex((shards) => shards.includes(SHARD))];
    const successor = workers.find((worker) => worker !== owner)!;
    const loginsBefore = (await network.device(deviceJid)).logins;

    owner.child.kill('SIGSTOP');
    let annSessionsAtResume: Awaited<ReturnType<typeof sessionRows>>;
    try {
      // Reaches the frozen owner's socket (still the device's connection): it waits there, unread, until the owner resumes.
      await network.sendFromContact(ANN_PHONE, deviceJid, { conversation: 'from Ann to the frozen owner' });

      // The lease passes on in PostgreSQL while the owner is frozen; the successor acquires the shard at its next
      // rebalance and logs the device in, which replaces the frozen connection.
      await expireLeaseOf(prefix, SHARD);
      await eventually(
        () => network.device(deviceJid),
        (device) => device.connected && device.logins === loginsBefore + 1,
        12_000,
      );
      expect(await shardsOf(successor)).toContain(SHARD);
      await waitForStatus(http, instance, (status) => status.isConnected);

      // The successor ratchets Ann's session both ways: its sending chain moves on, and a new one starts.
      expect(await sendTo(instance, ANN_PHONE, 'from the successor')).toEqual({ status: 201, text: 'from the successor', error: null });
      await receiveFrom(instance, ANN_PHONE, deviceJid, 'from Ann to the successor');
      annSessionsAtResume = await sessionRows(instance.id);
    } finally {
      owner.child.kill('SIGCONT');
    }

    // The owner handles the message in its socket with the session it has in memory and writes that session back.
    const afterResume = await eventually(
      async () => ({ refusedLogged: KEY_WRITE_REFUSED.test(owner.output()), sessions: await sessionRows(instance.id) }),
      ({ refusedLogged, sessions }) => refusedLogged || JSON.stringify(sessions) !== JSON.stringify(annSessionsAtResume),
      30_000,
    );
    await eventually(
      () => shardsOf(owner),
      (shards) => !shards.includes(SHARD),
    );

    // The successor's session still works (and the API still says so), with a contact whose session the stale write
    // could not touch.
    const successorAfterResume = {
      status: (await http.get('/session/status', headersOf(instance))).body,
      toBob: await sendTo(instance, BOB_PHONE, 'to Bob after the resume'),
    };
    await receiveFrom(instance, BOB_PHONE, deviceJid, 'from Bob after the resume');

    // The next session loaded from PostgreSQL: the successor hands the shard over (SIGTERM), the other worker opens it.
    await successor.stop('SIGTERM');
    await eventually(
      () => network.device(deviceJid),
      (device) => device.connected && device.logins === loginsBefore + 2,
      20_000,
    );
    expect(await shardsOf(owner)).toContain(SHARD);
    await waitForStatus(http, instance, (status) => status.isConnected);
    // Ann first: her message continues the session the successor's first send started, which only the successor's
    // writes hold (a new process's first send starts a new session, so a send first would not depend on them).
    const afterReload = {
      fromAnn: await receivedOrUndecryptable(instance, owner, ANN_PHONE, deviceJid, 'from Ann after the reload'),
      toAnn: await sendTo(instance, ANN_PHONE, 'to Ann after the reload'),
      toBob: await sendTo(instance, BOB_PHONE, 'to Bob after the reload'),
    };
    await receiveFrom(instance, BOB_PHONE, deviceJid, 'from Bob after the reload');

    const links = await network.links(deviceJid);
    const inboxes = [...(await network.inbox(ANN_PHONE)), ...(await network.inbox(BOB_PHONE))];
    expect({
      staleOwner: {
        keyWriteRefused: afterResume.refusedLogged,
        annSessionsUnchanged: JSON.stringify(afterResume.sessions) === JSON.stringify(annSessionsAtResume),
        // Nothing it handled after the takeover was recorded. (The real server would redeliver this unacknowledged message to
        // the next login; the fake one does not, so no worker records it.)
        recordedFrozenMessage: (await messagesOf(instance)).some((message) => message.text === 'from Ann to the frozen owner'),
      },
      successorAfterResume,
      afterReload,
      undecryptableAtContacts: inboxes.filter((entry) => entry.error).map((entry) => `${entry.id}: ${entry.error}`),
      // From the network's side: the frozen connection was replaced and never acted again, the successor's closed before the
      // reload's login, and no connection sent anything outside its own window.
      links: links.map((link) => ({ endedBy: link.endedBy ?? null, actedOutside: actedOutside(link) })),
      windowsDisjoint: links.every((link, index) => index === 0 || (links[index - 1].ended ?? Infinity) < link.login),
      badMac: workers.map((worker) => /Bad MAC/.test(worker.output())),
      successorDecryptFailures: DECRYPT_FAILURES.test(successor.output()),
    }).toEqual({
      staleOwner: { keyWriteRefused: true, annSessionsUnchanged: true, recordedFrozenMessage: false },
      successorAfterResume: {
        status: { isConnected: true, isLoggedIn: true, deviceId: deviceJid },
        toBob: { status: 201, text: 'to Bob after the resume', error: null },
      },
      afterReload: {
        fromAnn: 'recorded',
        toAnn: { status: 201, text: 'to Ann after the reload', error: null },
        toBob: { status: 201, text: 'to Bob after the reload', error: null },
      },
      undecryptableAtContacts: [],
      links: [
        { endedBy: 'replaced', actedOutside: [] },
        { endedBy: 'closed', actedOutside: [] },
        { endedBy: null, actedOutside: [] },
      ],
      windowsDisjoint: true,
      badMac: [false, false],
      successorDecryptFailures: false,
    });
  }, 150_000);
});
