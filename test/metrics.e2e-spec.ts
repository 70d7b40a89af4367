import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PrismaService } from '@app/database';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { useServedOpenApi } from './support/openapi';
import { ownsAllShards, spawnApp, startTcpProxy, type AppProcess, type TcpProxy } from './support/processes';
import { familyOf, metricNamesIn, parseExposition, valueOf, type Exposition } from './support/prometheus-text';
import { WebhookReceiver } from './support/webhook-receiver';
import { ScratchDatabase } from './repositories/scratch-database';

const SHARDS = 4;
const PACING_MS = 3_000;
const RETRY_AFTER_SECONDS = 8;
const TOKEN = randomBytes(32).toString('base64url');
const DEPLOY = join(__dirname, '..', 'deploy', 'observability');

/** Every series this goal adds, its type, and which processes export it. */
const PLATFORM = {
  db_pool_connections_in_use: 'gauge',
  db_pool_waiting_requests: 'gauge',
  db_pool_connections_max: 'gauge',
  redis_command_duration_seconds: 'histogram',
  messages_pending_sends: 'gauge',
  messages_oldest_pending_send_age_seconds: 'gauge',
  webhook_pending_deliveries: 'gauge',
  webhook_oldest_overdue_delivery_seconds: 'gauge',
};
const WORKER_ONLY = {
  bullmq_job_count: 'gauge',
  worker_sessions: 'gauge',
  worker_session_transitions_total: 'counter',
  worker_sessions_flapping: 'gauge',
  worker_shards_owned: 'gauge',
  worker_shard_lease_renewal_failures_total: 'counter',
  worker_shard_losses_total: 'counter',
  worker_sessions_resume_pending: 'gauge',
  message_accept_to_network_seconds: 'histogram',
  webhook_event_to_receiver_seconds: 'histogram',
  webhook_delivery_attempts_total: 'counter',
};

const typesOf = (exposition: Exposition, names: string[]) => Object.fromEntries(names.map((name) => [name, exposition.types.get(name)]));

describe('GET /metrics: the signals to scale and alert on (API and worker)', () => {
  const scratch = new ScratchDatabase('metrics');
  let receiver: WebhookReceiver;
  let api: RunningApi;
  let worker: AppProcess;
  let databaseForWorker: TcpProxy;
  let http: Http;
  let customer: Customer;
  let instance: CreatedInstance;
  const headers = () => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

  const scrape = async (url: string): Promise<Exposition> => {
    const response = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
    return parseExposition(await response.text());
  };
  const workerMetrics = () => scrape(worker.url);
  const apiMetrics = () => scrape(api.url);
  const sessionStatus = (connected: boolean) =>
    eventually(
      async () => (await http.get('/session/status', headers())).body as { isConnected: boolean },
      (status) => status.isConnected === connected,
      15_000,
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    await scratch.create();
    await scratch.migrate();
    // The worker reaches PostgreSQL through a proxy, so the last test can take the database away from it alone.
    const database = new URL(scratch.url);
    databaseForWorker = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
    const proxied = new URL(scratch.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(databaseForWorker.port);
    const prefix = subPrefix('metrics');
    [api, worker] = await Promise.all([
      startApi({
        databaseUrl: scratch.url,
        queuePrefix: prefix,
        shardCount: SHARDS,
        metricsToken: TOKEN,
        webhookAllowedHosts: ['127.0.0.1'],
      }),
      spawnApp('worker', {
        DATABASE_URL: proxied.toString(),
        QUEUE_PREFIX: prefix,
        SHARD_COUNT: String(SHARDS),
        METRICS_TOKEN: TOKEN,
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_SCHEDULE: String(RETRY_AFTER_SECONDS),
      }),
    ]);
    await ownsAllShards(worker, SHARDS);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Metrics Co');
    instance = await createInstance(http, customer.apiKey);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close(), databaseForWorker?.close()]);
    await scratch.drop();
  });

  it('answers only a scraper presenting METRICS_TOKEN, and declares every series with its type in the process that owns it', async () => {
    for (const url of [api.url, worker.url]) {
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    }
    const [fromApi, fromWorker] = await Promise.all([apiMetrics(), workerMetrics()]);
    expect(typesOf(fromApi, Object.keys(PLATFORM))).toEqual(PLATFORM);
    expect(typesOf(fromWorker, [...Object.keys(PLATFORM), ...Object.keys(WORKER_ONLY)])).toEqual({ ...PLATFORM, ...WORKER_ONLY });
    // The API holds no sessions, shards or queues of its own.
    expect(typesOf(fromApi, Object.keys(WORKER_ONLY))).toEqual(
      Object.fromEntries(Object.keys(WORKER_ONLY).map((name) => [name, undefined])),
    );
  });

  it('counts sessions by status and owned shards, with no renewal failure or lost shard yet, and times Redis commands', async () => {
    const before = await Promise.all([apiMetrics(), workerMetrics()]);
    expect((await http.post('/sandbox/pair', {}, headers())).status).toBe(200);
    await sessionStatus(true);
    const fromWorker = await eventually(workerMetrics, (now) => valueOf(now, 'worker_sessions', { status: 'connected' }) === 1);
    expect({
      sessions: Object.fromEntries(
        ['unpaired', 'pairing', 'connecting', 'connected', 'disconnected'].map((status) => [
          status,
          valueOf(fromWorker, 'worker_sessions', { status }),
        ]),
      ),
      owned: valueOf(fromWorker, 'worker_shards_owned'),
      renewalFailures: valueOf(fromWorker, 'worker_shard_lease_renewal_failures_total'),
      losses: Object.fromEntries(
        ['rebalance', 'expired', 'stopping', 'fenced'].map((reason) => [
          reason,
          valueOf(fromWorker, 'worker_shard_losses_total', { reason }),
        ]),
      ),
      resumePending: valueOf(fromWorker, 'worker_sessions_resume_pending'),
      flapping: valueOf(fromWorker, 'worker_sessions_flapping'),
    }).toEqual({
      sessions: { unpaired: 0, pairing: 0, connecting: 0, connected: 1, disconnected: 0 },
      owned: SHARDS,
      renewalFailures: 0,
      losses: { rebalance: 0, expired: 0, stopping: 0, fenced: 0 },
      resumePending: 0,
      flapping: 0,
    });
    expect(valueOf(fromWorker, 'worker_session_transitions_total', { status: 'connected' })).toBeGreaterThanOrEqual(1);
    // Both processes sent commands since the first scrape (the pairing went API → Redis → worker → Redis).
    const after = await Promise.all([apiMetrics(), workerMetrics()]);
    const redisCommands = (exposition: Exposition) =>
      exposition.samples
        .filter((sample) => sample.name === 'redis_command_duration_seconds_count')
        .reduce((sum, sample) => sum + sample.value, 0);
    expect(after.map((exposition, index) => redisCommands(exposition) > redisCommands(before[index]))).toEqual([true, true]);
    // Blocking commands (BullMQ's waits for jobs) are not timed: their time says how long no job came.
    expect(
      after[1].samples.filter(
        (sample) => sample.name === 'redis_command_duration_seconds_count' && /^b[lrz]|^xread/.test(sample.labels.command),
      ),
    ).toEqual([]);
  });

  it('shows a PostgreSQL pool in use and requests waiting for it, and a scrape still answers with the pool exhausted', async () => {
    const pool = api.app.get(PrismaService).pool;
    const size = api.config.databasePoolSize;
    const idle = await apiMetrics();
    expect({
      max: valueOf(idle, 'db_pool_connections_max', { pool: 'main' }),
      lease: valueOf(idle, 'db_pool_connections_max', { pool: 'lease' }),
      replica: valueOf(idle, 'db_pool_connections_max', { pool: 'replica' }),
    }).toEqual({ max: size, lease: 2, replica: undefined });
    const held = await Promise.all(Array.from({ length: size }, () => pool.connect()));
    const waiting = pool.query('SELECT 1');
    try {
      const busy = await apiMetrics();
      expect({
        inUse: valueOf(busy, 'db_pool_connections_in_use', { pool: 'main' }),
        waitingAtLeastOne: (valueOf(busy, 'db_pool_waiting_requests', { pool: 'main' }) ?? 0) >= 1,
        backlogStillThere: valueOf(busy, 'messages_pending_sends') !== undefined,
      }).toEqual({ inUse: size, waitingAtLeastOne: true, backlogStillThere: true });
    } finally {
      for (const client of held) client.release();
    }
    await waiting;
    const released = await eventually(apiMetrics, (now) => valueOf(now, 'db_pool_waiting_requests', { pool: 'main' }) === 0);
    expect(valueOf(released, 'db_pool_connections_in_use', { pool: 'main' })).toBeLessThan(size);
  });

  it('counts pending sends fleet-wide while pacing holds them, then times each from acceptance to the network', async () => {
    const before = await workerMetrics();
    const sentBefore = valueOf(before, 'message_accept_to_network_seconds_count') ?? 0;
    const secondsBefore = valueOf(before, 'message_accept_to_network_seconds_sum') ?? 0;
    const paced = await http.put(
      `/account/instances/${instance.id}/pacing`,
      { minIntervalMs: PACING_MS },
      { 'X-Api-Key': customer.apiKey },
    );
    expect(paced.status).toBe(204);
    for (const text of ['one', 'two', 'three', 'four']) {
      const accepted = await http.post('/messages/text', { to: '447700900123', text }, headers());
      expect({ status: accepted.status, body: accepted.body as unknown }).toEqual({ status: 201, body: { id: expect.any(String) } });
    }
    // The same deployment-wide figure in both processes (read from PostgreSQL): dashboards take max(), never sum().
    const waitingInApi = await eventually(apiMetrics, (now) => (valueOf(now, 'messages_pending_sends') ?? 0) >= 1, 15_000);
    expect(valueOf(waitingInApi, 'messages_oldest_pending_send_age_seconds')).toBeGreaterThan(0);
    await eventually(workerMetrics, (now) => (valueOf(now, 'messages_pending_sends') ?? 0) >= 1, 15_000);
    const sent = await eventually(
      workerMetrics,
      (now) => valueOf(now, 'message_accept_to_network_seconds_count') === sentBefore + 4 && valueOf(now, 'messages_pending_sends') === 0,
      30_000,
    );
    // Pacing held the nth message at least (n-1) intervals after the first went: 0 + 3 + 6 + 9 s, less the time taken to post them.
    const waited = (valueOf(sent, 'message_accept_to_network_seconds_sum') ?? 0) - secondsBefore;
    expect(waited).toBeGreaterThan(((0 + 1 + 2 + 3) * PACING_MS) / 1000 - 3);
    expect(valueOf(sent, 'messages_oldest_pending_send_age_seconds')).toBe(0);
    expect(
      (await http.put(`/account/instances/${instance.id}/pacing`, { minIntervalMs: 0 }, { 'X-Api-Key': customer.apiKey })).status,
    ).toBe(204);
  }, 60_000);

  it('classifies webhook attempts, shows the retry waiting in the queue and as a pending delivery, and times event → receiver', async () => {
    const before = await workerMetrics();
    const attempts = (exposition: Exposition, outcome: string) => valueOf(exposition, 'webhook_delivery_attempts_total', { outcome }) ?? 0;
    const deliveredBefore = valueOf(before, 'webhook_event_to_receiver_seconds_count') ?? 0;
    // The receiver refuses the first copy of the message "retry me" (500) and takes everything else.
    const refused = new Set<string>();
    receiver.script('/hooks/metrics', (hook) => {
      const text = (hook.envelope.eventData as { text?: string }).text;
      if (text !== 'retry me' || refused.has(hook.envelope.eventId)) return { status: 200 };
      refused.add(hook.envelope.eventId);
      return { status: 500 };
    });
    const saved = await http.put('/instance/settings', { useCustomDefaults: false, webhookUrl: receiver.url('/hooks/metrics') }, headers());
    expect(saved.status).toBe(204);
    expect((await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text: 'retry me' }, headers())).status).toBe(201);

    const webhookView = (now: Exposition) => ({
      delayed: valueOf(now, 'bullmq_job_count', { queue: 'webhooks', state: 'delayed' }),
      pending: valueOf(now, 'webhook_pending_deliveries'),
      http5xx: attempts(now, 'http_5xx') - attempts(before, 'http_5xx'),
      delivered: attempts(now, 'delivered') - attempts(before, 'delivered'),
      timed: (valueOf(now, 'webhook_event_to_receiver_seconds_count') ?? 0) - deliveredBefore,
      // The retried event reached the receiver no sooner than its retry delay after it was received.
      timedOver5s:
        (valueOf(now, 'webhook_event_to_receiver_seconds_count') ?? 0) -
        (valueOf(now, 'webhook_event_to_receiver_seconds_bucket', { le: '5' }) ?? 0),
      sendQueueFailed: valueOf(now, 'bullmq_job_count', { queue: 'send', state: 'failed' }),
      webhooksFailed: valueOf(now, 'bullmq_job_count', { queue: 'webhooks', state: 'failed' }),
    });
    const waiting = await eventually(
      async () => webhookView(await workerMetrics()),
      (view) => view.delayed === 1 && view.pending === 1,
      15_000,
    );
    expect(waiting).toMatchObject({ http5xx: 1, sendQueueFailed: 0, webhooksFailed: 0 });

    const done = await eventually(
      async () => webhookView(await workerMetrics()),
      (view) => view.pending === 0 && view.delayed === 0,
      30_000,
    );
    const retried = receiver.received.filter((hook) => (hook.envelope.eventData as { text?: string }).text === 'retry me');
    expect(retried.map((hook) => hook.envelope.eventId)).toEqual([retried[0].envelope.eventId, retried[0].envelope.eventId]);
    expect({ ...done, delivered: done.delivered >= 1, timed: done.timed >= 1 }).toEqual({
      delayed: 0,
      pending: 0,
      http5xx: 1,
      delivered: true,
      timed: true,
      timedOver5s: 1,
      sendQueueFailed: 0,
      webhooksFailed: 0,
    });
  }, 60_000);

  it('shows a session whose link keeps dropping as flapping, with each drop counted', async () => {
    const before = await workerMetrics();
    const drops = (exposition: Exposition) => valueOf(exposition, 'worker_session_transitions_total', { status: 'disconnected' }) ?? 0;
    for (let drop = 0; drop < 3; drop += 1) {
      expect((await http.post('/sandbox/connection', { state: 'offline' }, headers())).status).toBe(204);
      await sessionStatus(false);
      if (drop === 0) {
        const offline = await workerMetrics();
        expect([
          valueOf(offline, 'worker_sessions', { status: 'disconnected' }),
          valueOf(offline, 'worker_sessions', { status: 'connected' }),
        ]).toEqual([1, 0]);
      }
      expect((await http.post('/sandbox/connection', { state: 'online' }, headers())).status).toBe(204);
      await sessionStatus(true);
    }
    const after = await eventually(workerMetrics, (now) => valueOf(now, 'worker_sessions', { status: 'connected' }) === 1);
    // At least the three drops made here (on a loaded host a reconnect may itself fail and drop once more).
    expect({ drops: drops(after) - drops(before) >= 3, flapping: valueOf(after, 'worker_sessions_flapping') }).toEqual({
      drops: true,
      flapping: 1,
    });
  }, 60_000);

  it('uses in the Grafana dashboard and the alert rules only metrics that the API or the worker exports', async () => {
    const [fromApi, fromWorker] = await Promise.all([apiMetrics(), workerMetrics()]);
    const types = new Map([...fromApi.types, ...fromWorker.types]);
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };
    const rules = parseYaml(readFileSync(join(DEPLOY, 'prometheus-alerts.yml'), 'utf8')) as {
      groups: { name: string; rules: { alert: string; expr: string; labels: { severity: string } }[] }[];
    };
    const expressions = [
      ...targetsOf(dashboard.panels).map(({ panel, expr }) => ({ where: `dashboard panel "${panel}"`, expr })),
      ...rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
    ];
    const used = expressions.flatMap(({ where, expr }) => metricNamesIn(expr).map((name) => ({ where, name })));
    const unknown = used.filter(({ name }) => familyOf(name, types) === undefined).map(({ where, name }) => `${name} (in ${where})`);
    expect(unknown).toEqual([]);
    // Every metric this goal adds is on the dashboard, and the three alerts are among the rules.
    const onDashboard = new Set(used.filter(({ where }) => where.startsWith('dashboard')).map(({ name }) => familyOf(name, types)));
    expect([...Object.keys(PLATFORM), ...Object.keys(WORKER_ONLY)].filter((name) => !onDashboard.has(name))).toEqual([]);
    const alerts = rules.groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    expect(alerts).toEqual(expect.arrayContaining(['GatewaySendBacklogGrowing', 'GatewaySessionFlapping', 'GatewayWebhookFailureRate']));
    expect(rules.groups.flatMap((group) => group.rules.filter((rule) => !['warning', 'critical'].includes(rule.labels.severity)))).toEqual(
      [],
    );
  });

  it('counts failed lease renewals and the shards lost when PostgreSQL is gone from the worker; its scrape still answers', async () => {
    const before = await workerMetrics();
    const expiredBefore = valueOf(before, 'worker_shard_losses_total', { reason: 'expired' }) ?? 0;
    expect(valueOf(before, 'worker_shards_owned')).toBe(SHARDS);
    await databaseForWorker.close();
    // The lease is forgotten at once; the loss is counted and the sessions closed by the shard's listener right after.
    const after = await eventually(
      workerMetrics,
      (now) =>
        (valueOf(now, 'worker_shard_lease_renewal_failures_total') ?? 0) >= 1 &&
        valueOf(now, 'worker_shards_owned') === 0 &&
        (valueOf(now, 'worker_shard_losses_total', { reason: 'expired' }) ?? 0) - expiredBefore >= SHARDS &&
        valueOf(now, 'worker_sessions', { status: 'connected' }) === 0,
      30_000,
    );
    expect({
      expired: (valueOf(after, 'worker_shard_losses_total', { reason: 'expired' }) ?? 0) - expiredBefore,
      sessions: valueOf(after, 'worker_sessions', { status: 'connected' }),
      // The backlog could not be read: the last counts stay.
      pendingSends: valueOf(after, 'messages_pending_sends'),
    }).toEqual({ expired: SHARDS, sessions: 0, pendingSends: 0 });
  }, 60_000);
});

interface Panel {
  title: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}

function targetsOf(panels: Panel[]): { panel: string; expr: string }[] {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
    ...targetsOf(panel.panels ?? []),
  ]);
}
