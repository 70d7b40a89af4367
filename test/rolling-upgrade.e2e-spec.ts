import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf } from './support/instance-world';
import { PREVIOUS_RELEASE, previousReleaseRoot } from './support/previous-release';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';
import { SseClient } from './support/sse-client';
import { WebhookReceiver } from './support/webhook-receiver';
import { ScratchDatabase } from './repositories/scratch-database';

// A rolling upgrade runs release N and N-1 side by side on the schema N's migrations made (docs/upgrades.md): the
// previous release's worker behind this API, then this worker behind the previous API. Everything that crosses the
// process boundary (send jobs, command requests and replies, events, pairing) must work both ways.

const SHARD_COUNT = 16;
const CONTACT = '447700900123';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_ID = /^evt_\d+_[0-9a-f]{16}$/;

type Release = 'previous' | 'current';

/**
 * Warnings the previous release logs on a normal start, whatever the other release does: a Redis command issued before
 * its worker's connection is up (the check for workers of a build with Redis leases, the resume progress) is refused
 * rather than queued. This release waits for the connection first, so it logs nothing; any other warning fails.
 */
const PREVIOUS_STARTUP_NOISE = ["Stream isn't writeable and enableOfflineQueue options is false"];

const scenarios: { label: string; api: Release; worker: Release; phones: string }[] = [
  { label: `the previous release's worker (${PREVIOUS_RELEASE}) behind this API`, api: 'current', worker: 'previous', phones: '1555097' },
  { label: `this worker behind the previous release's API (${PREVIOUS_RELEASE})`, api: 'previous', worker: 'current', phones: '1555098' },
];

/** One scenario's API and worker, on its own database and queue prefix. */
interface Deployment {
  scratch: ScratchDatabase;
  api?: AppProcess;
  /** Its QUEUE_PREFIX. */
  prefix?: string;
  /** Every worker started; the first is the one the scenario names. */
  workers: AppProcess[];
  /** The processes of the previous release among `api` and `workers`. */
  previous: Set<AppProcess>;
  /** Starts a worker of `release` on this deployment's database and queue prefix. */
  startWorker?: (release: Release) => Promise<AppProcess>;
}

/**
 * Starts the API and the worker of the releases named, on a database migrated by this release's migrations only
 * (expand-then-contract: the old code must run on it) and a queue prefix of its own, so the other scenario's worker
 * never sees these instances. A small shard space (both releases read SHARD_COUNT) keeps lease taking short.
 */
async function deploy(deployment: Deployment, releases: { api: Release; worker: Release }, previousRoot: string): Promise<void> {
  await deployment.scratch.create();
  await deployment.scratch.migrate();
  deployment.prefix = subPrefix('rolling');
  const env = {
    DATABASE_URL: deployment.scratch.url,
    QUEUE_PREFIX: deployment.prefix,
    SHARD_COUNT: String(SHARD_COUNT),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  // Four processes start at once on two cores: on a loaded CI machine that took 25 s and more.
  const from = (release: Release) => ({ root: release === 'previous' ? previousRoot : undefined, readyTimeoutMs: 90_000 });
  deployment.startWorker = async (release) => {
    const worker = await spawnApp('worker', env, 'ready', from(release));
    deployment.workers.push(worker);
    if (release === 'previous') deployment.previous.add(worker);
    return worker;
  };
  const [api, worker] = await Promise.allSettled([
    spawnApp('api', env, 'ready', from(releases.api)),
    deployment.startWorker(releases.worker),
  ]);
  if (api.status === 'fulfilled') deployment.api = api.value;
  if (api.status === 'fulfilled' && releases.api === 'previous') deployment.previous.add(api.value);
  for (const started of [api, worker]) if (started.status === 'rejected') throw started.reason;
  await ownsAllShards(deployment.workers[0], SHARD_COUNT, 60_000);
}

describe(`rolling upgrade: this release beside ${PREVIOUS_RELEASE} on the new schema`, () => {
  let receiver: WebhookReceiver;
  const deployments = new Map<string, Deployment>(
    scenarios.map((scenario) => [scenario.label, { scratch: new ScratchDatabase('rolling'), workers: [], previous: new Set<AppProcess>() }]),
  );

  // Both scenarios start side by side: one wait for readiness and leases instead of two.
  beforeAll(async () => {
    const [previousRoot, started] = await Promise.all([previousReleaseRoot(), WebhookReceiver.start()]);
    receiver = started;
    await Promise.all(scenarios.map((scenario) => deploy(deployments.get(scenario.label)!, scenario, previousRoot)));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(
      [...deployments.values()].map(async ({ api, workers, scratch }) => {
        await Promise.all([api?.stop(), ...workers.map((worker) => worker.stop())]);
        await scratch.drop();
      }),
    );
    await receiver?.close();
  });

  describe.each(scenarios)('$label', ({ label, phones, worker: workerRelease }) => {
    let http: Http;
    let apiUrl: string;
    let customer: Customer;
    let instance: CreatedInstance;
    let stream: SseClient | undefined;
    const hookPath = `/rolling/${phones}`;
    const phone = `${phones}0001`;

    beforeAll(async () => {
      apiUrl = deployments.get(label)!.api!.url;
      http = new Http(apiUrl, { checkSpec: false });
      customer = await createCustomer(http, `Rolling ${phones}`);
    });

    afterAll(() => stream?.close());

    it('pairs by QR: the QR comes from the worker, pairing connects the instance and logs logged_in', async () => {
      instance = await createInstance(http, customer.apiKey);
      const headers = headersOf(instance);
      const settings = await http.put('/instance/settings', { useCustomDefaults: false, webhookUrl: receiver.url(hookPath) }, headers);
      expect(settings.status).toBe(204);
      expect(await http.get('/session/status', headers)).toMatchObject({
        status: 200,
        body: { isConnected: false, isLoggedIn: false, deviceId: '' },
      });

      const qr = await http.get('/session/qr/text', headers);
      expect(qr).toMatchObject({ status: 200, body: { code: expect.stringMatching(/^2@[A-Za-z0-9+/=]+(,[A-Za-z0-9+/=]+){3}$/) } });
      const paired = await http.post('/sandbox/pair', { phone }, headers);
      expect(paired.status).toBe(200);
      const deviceId = (paired.body as { deviceId: string }).deviceId;
      expect(deviceId).toMatch(new RegExp(`^${phone}:\\d+@s\\.whatsapp\\.net$`));
      const status = await eventually(
        async () => (await http.get('/session/status', headers)).body as Record<string, unknown>,
        (body) => body.isConnected === true,
        15_000,
      );
      expect(status).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
      const hooks = await eventually(
        () => Promise.resolve(receiver.at(hookPath)),
        (received) => received.some((hook) => hook.envelope.eventType === 'logged_in'),
        15_000,
      );
      expect(hooks.map((hook) => hook.envelope)).toEqual([
        {
          eventId: expect.stringMatching(EVENT_ID),
          instanceId: instance.id,
          eventType: 'logged_in',
          receivedAt: expect.stringMatching(ISO),
          eventData: { deviceId },
        },
      ]);
    });

    it('pairs by phone number: the pair code comes from the worker', async () => {
      const other = await createInstance(http, customer.apiKey, { name: 'by-code', sandbox: true });
      const code = await http.get(`/session/pair-code/+${phones}0002`, headersOf(other));
      expect(code).toMatchObject({ status: 200, body: { code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/) } });
      const paired = await http.post('/sandbox/pair', {}, headersOf(other));
      expect(paired.status).toBe(200);
      const deviceId = (paired.body as { deviceId: string }).deviceId;
      expect(deviceId).toMatch(new RegExp(`^${phones}0002:\\d+@s\\.whatsapp\\.net$`));
      expect(
        await eventually(
          async () => (await http.get('/session/status', headersOf(other))).body as Record<string, unknown>,
          (body) => body.isConnected === true,
          15_000,
        ),
      ).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    });

    it('sends a text and an image: both reach the network, and their message_status events reach the webhook and the stream', async () => {
      const headers = headersOf(instance);
      stream = await SseClient.open(apiUrl, '/events/stream', headers);
      expect(stream.status).toBe(200);

      const postedAt = Date.now();
      const text = await http.post('/messages/text', { to: CONTACT, message: 'across releases' }, headers);
      expect(text.status).toBe(201);
      const image = await http.post(
        '/messages/image',
        { to: CONTACT, data: PNG.toString('base64'), mimeType: 'image/png', caption: 'pixel' },
        headers,
      );
      expect(image.status).toBe(201);
      const textId = (text.body as { id: string }).id;
      const imageId = (image.body as { id: string }).id;

      const outbox = await eventually(
        async () => (await http.get('/sandbox/outbox', headers)).body as { id: string; receivedAt: string }[],
        (entries) => [textId, imageId].every((id) => entries.some((entry) => entry.id === id)),
        15_000,
      );
      // Sent on their doorbells, not found later: a doorbell the worker cannot read still completes, and its send waits
      // for the reconciler, which re-kicks rows left waiting after 3 s (README, Operations).
      const waited = outbox
        .filter((entry) => entry.id === textId || entry.id === imageId)
        .map((entry) => Date.parse(entry.receivedAt) - postedAt);
      expect(waited.filter((ms) => ms >= 2_500)).toEqual([]);
      // The stored payload carries its version (`v`). This release's worker decodes it away; the previous release's
      // sandbox network copies the whole payload into its simulated outbox, so there the version shows (its real
      // driver reads named fields only). docs/upgrades.md says so.
      const stamped = workerRelease === 'previous' ? { v: 2 } : {};
      expect(outbox.filter((entry) => entry.id === textId || entry.id === imageId)).toEqual([
        {
          id: textId,
          to: CONTACT_JID,
          type: 'text',
          content: { text: 'across releases', ...stamped },
          receivedAt: expect.stringMatching(ISO),
        },
        {
          id: imageId,
          to: CONTACT_JID,
          type: 'image',
          content: {
            caption: 'pixel',
            media: { mimeType: 'image/png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') },
            ...stamped,
          },
          receivedAt: expect.stringMatching(ISO),
        },
      ]);

      const statusesOf = (id: string) =>
        receiver.at(hookPath).filter((hook) => hook.envelope.eventType === 'message_status' && hook.envelope.eventData.id === id);
      await eventually(
        () => Promise.resolve([textId, imageId].map((id) => statusesOf(id).length)),
        (counts) => counts.every((count) => count > 0),
        15_000,
      );
      for (const id of [textId, imageId]) {
        expect(statusesOf(id)[0].envelope).toEqual({
          eventId: expect.stringMatching(EVENT_ID),
          instanceId: instance.id,
          eventType: 'message_status',
          receivedAt: expect.stringMatching(ISO),
          eventData: { id, chatId: CONTACT_JID, status: 'sent' },
        });
      }
      const live = stream;
      await live.waitFor(
        (client) =>
          [textId, imageId].every((id) =>
            client.messages.some((message) => message.event.eventType === 'message_status' && message.event.eventData.id === id),
          ),
        15_000,
      );
      // The stream carries the same events as the webhook, envelope for envelope.
      for (const id of [textId, imageId]) {
        const streamed = live.messages.find((message) => message.event.eventType === 'message_status' && message.event.eventData.id === id);
        expect(streamed?.event).toEqual(statusesOf(id)[0].envelope);
      }
    });

    it('runs network operations through the command bus: a group is created and read back', async () => {
      const headers = headersOf(instance);
      const self = `${phone}@s.whatsapp.net`;
      const created = await http.post('/groups', { name: 'Across releases', participants: [CONTACT] }, headers);
      expect(created.status).toBe(201);
      const group = created.body as { groupId: string; createdAt: string };
      expect(group).toEqual({
        id: group.groupId,
        groupId: expect.stringMatching(/^120363\d{15}@g\.us$/),
        owner: { id: self },
        name: 'Across releases',
        createdAt: expect.stringMatching(ISO),
        isAnnounce: false,
        isLocked: false,
        isEphemeral: false,
        ephemeralExpiration: 0,
        participants: [
          { id: CONTACT_JID, isAdmin: false, isSuperAdmin: false },
          { id: self, isAdmin: true, isSuperAdmin: true },
        ].sort((a, b) => a.id.localeCompare(b.id)),
        isAnnouncementGroup: false,
        isCommunity: false,
        isJoinApprovalRequired: false,
        memberAddMode: 'admin_add',
      });
      // Read back through the owner's session: the same group, without the creation answer's `id` alias.
      const { id: _alias, ...info } = group as typeof group & { id: string };
      const read = await http.get(`/groups/${group.groupId}`, headers);
      expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: info });
      const operations = (await http.get('/sandbox/operations', headers)).body as { name: string; args: Record<string, unknown> }[];
      expect(operations.map((operation) => operation.name)).toEqual(['groups.create', 'groups.info']);
    });

    it("hands its instances over to the other release's worker on a rolling restart: they stay connected and keep sending", async () => {
      // Upgrading the workers one at a time (the previous release's worker is replaced by this one) and rolling back
      // (this worker replaced by the previous release's): the successor joins, the worker it replaces stops on SIGTERM
      // and releases its leases, and the successor resumes the sessions the other release stored.
      const deployment = deployments.get(label)!;
      const [replaced] = deployment.workers;
      const successor = await deployment.startWorker!(workerRelease === 'previous' ? 'current' : 'previous');
      await replaced.stop('SIGTERM');
      await ownsAllShards(successor, SHARD_COUNT, 60_000);
      const headers = headersOf(instance);
      const deviceId = (
        (await eventually(
          async () => (await http.get('/session/status', headers)).body as Record<string, unknown>,
          (body) => body.isConnected === true,
          15_000,
        )) as { deviceId: string }
      ).deviceId;
      expect(deviceId).toMatch(new RegExp(`^${phone}:\\d+@s\\.whatsapp\\.net$`));

      const sent = await http.post('/messages/text', { to: CONTACT, message: 'after the handover' }, headers);
      expect(sent.status).toBe(201);
      const id = (sent.body as { id: string }).id;
      const outbox = await eventually(
        async () => (await http.get('/sandbox/outbox', headers)).body as { id: string }[],
        (entries) => entries.some((entry) => entry.id === id),
        15_000,
      );
      expect(outbox.find((entry) => entry.id === id)).toEqual({
        id,
        to: CONTACT_JID,
        type: 'text',
        content: { text: 'after the handover' },
        receivedAt: expect.stringMatching(ISO),
      });
      const status = await eventually(
        () =>
          Promise.resolve(
            receiver.at(hookPath).find((hook) => hook.envelope.eventType === 'message_status' && hook.envelope.eventData.id === id),
          ),
        (hook) => hook !== undefined,
        15_000,
      );
      expect(status!.envelope.eventData).toEqual({ id, chatId: CONTACT_JID, status: 'sent' });
      // Nothing sent before the handover went out again.
      const all = (await http.get('/sandbox/outbox', headers)).body as { id: string }[];
      expect(all.length).toBe(new Set(all.map((entry) => entry.id)).size);
    }, 180_000);

    it('failed no queue job and logged no warning or error in either release: no shape one of them misread', async () => {
      // A doorbell or command the other release cannot read is not always a failed request: a send whose doorbell
      // fails still goes out when the reconciler finds it, seconds later. The queues' failed sets and the processes'
      // logs (LOG_LEVEL=warn) say so: both must be empty, but for PREVIOUS_STARTUP_NOISE.
      const deployment = deployments.get(label)!;
      const redis = new Redis(testEnv().REDIS_URL);
      try {
        const failedSets = await redis.keys(`${deployment.prefix!}:*:failed`);
        const failed = await Promise.all(failedSets.map(async (key) => ({ key, jobs: (await redis.zrange(key, 0, -1)).length })));
        expect(failed.filter(({ jobs }) => jobs > 0)).toEqual([]);
      } finally {
        redis.disconnect();
      }
      const noise = (process: AppProcess, line: string) =>
        deployment.previous.has(process) && PREVIOUS_STARTUP_NOISE.some((known) => line.includes(known));
      const lines = [deployment.api!, ...deployment.workers].flatMap((process) =>
        process.output().split('\n').filter((line) => line.trim() !== '' && !noise(process, line)),
      );
      expect(lines).toEqual([]);
    });
  });
});
