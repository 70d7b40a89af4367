#!/usr/bin/env node
// What a number costs PostgreSQL and Redis, measured, and the sizing that follows for 1k, 10k and 100k numbers.
//
//   npm run build && node bench/capacity.mjs [--minutes=3] [--sends=30] [--inbound-per-send=3] [--instances=20] [--json]
//
// The built API and one worker (dist/) against a PRIVATE PostgreSQL (so the WAL it writes and the CPU of its
// checkpointer, WAL writer and autovacuum are this run's alone) and a fresh Redis prefix; --instances paired sandbox
// instances, each with a webhook on a local receiver that answers at once. For --minutes it runs a fixed mix: --sends
// POST /messages/text per second and --inbound-per-send inbound messages per send (the profile: a number sends
// one message a minute and receives three). Then it waits for the sends and the webhook backlog to drain.
//
// It prints, from what changed in the run:
// - per table (partitions summed): rows and bytes (heap + indexes + TOAST) per instance per day at the reference
//   profile (1 send and 3 inbound messages a minute per instance);
// - WAL bytes per message and PostgreSQL CPU per message (every process of the private server);
// - API and worker CPU per message, average busy PostgreSQL backends, Redis memory of this deployment's keys;
// - the sizing table for 1k, 10k and 100k instances at the reference profile and each table's default retention
//   (read from .env.example, so the figures follow the defaults the gateway ships).
// Exit status 0, 1 on failure, 130 when stopped. Everything created is removed at the end.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import * as gw from './gateway.mjs';

const { environmentLine, fixed, intSetting, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const minutes = intSetting(argv, 'minutes', 'BENCH_MINUTES', 3, 1, 24 * 60);
const sendRate = intSetting(argv, 'sends', 'BENCH_SENDS', 30, 1, 10_000);
const inboundPerSend = intSetting(argv, 'inbound-per-send', 'BENCH_INBOUND_PER_SEND', 3, 0, 100);
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 20, 1, 1000);
const { cleanups, control } = gw.boundedRun(log, (minutes * 60 + 900) * 1000);

/** The reference profile the sizing is for: per instance and minute. */
const REFERENCE = { sendsPerMinute: 1, inboundPerMinute: 3 };
const REFERENCE_MESSAGES_PER_DAY = (REFERENCE.sendsPerMinute + REFERENCE.inboundPerMinute) * 60 * 24;
const FLEET_SIZES = [1_000, 10_000, 100_000];
/** Share of a core a process may use in steady state, leaving room for bursts, takeovers and backlogs. */
const TARGET_UTILISATION = 0.6;
/** A table kept until its instance goes (credentials, chats, contacts...), or one nothing prunes yet. */
const NOT_PRUNED_BY_AGE = 'not pruned by age';

/**
 * How long each time-pruned table keeps its rows by default: the variable of libs/config that sets it, as shipped in
 * .env.example (docs/operations.md has the whole table). Tables not named here grow with instances, not with time.
 */
const RETENTION_VARIABLES = {
  event_log: 'EVENT_RETENTION_HOURS',
  webhook_deliveries: 'EVENT_RETENTION_HOURS',
  webhook_attempts: 'EVENT_RETENTION_HOURS',
  messages: 'MESSAGE_RETENTION_DAYS',
  message_idempotency_keys: 'MESSAGE_RETENTION_DAYS',
  network_messages: 'NETWORK_RETENTION_HOURS',
  media_blobs: 'ORPHAN_MEDIA_RETENTION_HOURS',
};

function shippedDefaults() {
  const text = readFileSync(join(gw.root, '.env.example'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1], match[2].trim()]));
}

/** Retention in days of `tableName` by default, or null when it is not pruned by age. */
function retentionDays(tableName, defaults) {
  const variable = RETENTION_VARIABLES[tableName];
  if (!variable) return null;
  const value = Number(defaults[variable]);
  if (!Number.isFinite(value)) throw new Error(`.env.example has no numeric ${variable} (retention of ${tableName})`);
  return variable.endsWith('_HOURS') ? value / 24 : value;
}

/** Rows and bytes of every table of the schema, each partitioned table counted with all its partitions. */
async function tableSizes(db) {
  const { rows: tables } = await db.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'
     ORDER BY c.relname`,
  );
  const sizes = {};
  for (const { name } of tables) {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM "${name}")::bigint AS rows,
              -- A partitioned table has no storage of its own and a plain one no partition tree: whichever is larger.
              greatest(pg_total_relation_size($1::regclass),
                       (SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_partition_tree($1::regclass)))::bigint AS bytes`,
      [name],
    );
    sizes[name] = { rows: Number(rows[0].rows), bytes: Number(rows[0].bytes) };
  }
  return sizes;
}

async function walLsn(db) {
  const { rows } = await db.query('SELECT pg_current_wal_lsn()::text AS lsn');
  return rows[0].lsn;
}

async function walBytesSince(db, lsn) {
  const { rows } = await db.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint AS bytes', [lsn]);
  return Number(rows[0].bytes);
}

/** Memory Redis reports for every key of this deployment (MEMORY USAGE over a SCAN of the prefix). */
async function redisPrefixBytes(redisUrl, prefix) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    let cursor = '0';
    let bytes = 0;
    let keys = 0;
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) {
        bytes += Number((await redis.memory('USAGE', key)) ?? 0);
        keys += 1;
      }
    } while (cursor !== '0');
    return { bytes, keys };
  } finally {
    redis.disconnect();
  }
}

/** Every process of the private server: backends, checkpointer, WAL writer, autovacuum (pg_stat_activity lists them all). */
async function serverPids(db) {
  const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
  return rows.map((row) => row.pid);
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const KiB = 1024;
const human = (bytes) =>
  bytes >= GiB ? `${fixed(bytes / GiB, 1)} GiB` : bytes >= MiB ? `${fixed(bytes / MiB, 1)} MiB` : `${fixed(bytes / KiB, 1)} KiB`;

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({
    cleanups,
    control,
    log,
    label: 'capacity',
    processes,
    privatePostgres: true,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  });
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log });
  const receiver = await gw.startCountingReceiver(cleanups);
  await gw.pointWebhooks(gateway, instances, receiver.port, () => 'capacity-signing-secret-0123456789');
  const { db } = gateway;
  const drained = async () => {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending')::int AS backlog,
              (SELECT count(*) FROM messages WHERE status = 'accepted')::int AS pending`,
    );
    return rows[0].backlog === 0 && rows[0].pending === 0;
  };
  const settle = async (label) => {
    const deadline = Date.now() + 300_000;
    while (!(await drained())) {
      if (Date.now() > deadline) throw new Error(`${label}: sends or webhooks still pending after 5 minutes`);
      await control.sleep(500);
    }
  };
  await settle('after pairing');
  await db.query('CHECKPOINT');
  const before = await tableSizes(db);
  const lsn = await walLsn(db);
  const redisBefore = await redisPrefixBytes(gateway.infra.redisUrl, gateway.infra.queuePrefix);

  const cpu = new gw.CpuMeter({ api: gateway.api.child.pid, worker: gateway.worker.child.pid, postgres: () => serverPids(db) });
  const activity = new gw.PgActivitySampler(gateway, { everyMs: 200 });
  await cpu.start();
  await activity.start();

  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  cleanups.push('closed the HTTP client', () => agent.destroy());
  const answers = {};
  const count = (status) => (answers[status] = (answers[status] ?? 0) + 1);
  const inFlight = new Set();
  const track = (promise) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const post = async (url, headers, body) => (await gw.postJson(agent, url, headers, body, { timeoutMs: 30_000 })).status;
  log(`capacity: ${sendRate} sends/s and ${sendRate * inboundPerSend} inbound/s over ${instanceCount} instances for ${minutes} min`);
  const start = performance.now();
  const end = start + minutes * 60_000;
  let sends = 0;
  let inbound = 0;
  let inboundTicks = 0;
  const sendTimer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * sendRate);
    for (; sends < due && inFlight.size < 1000; sends += 1) {
      const instance = instances[sends % instances.length];
      track(post(`${gateway.apiUrl}/messages/text`, instance.headers, { to: '447700900123', message: `capacity ${sends}` }).then(count));
    }
  }, 5);
  const inboundTimer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * sendRate * inboundPerSend);
    const texts = [];
    for (; inbound < due; inbound += 1) texts.push({ from: '447700900123', type: 'text', text: `in ${inbound}` });
    if (texts.length === 0) return;
    const instance = instances[inboundTicks % instances.length];
    inboundTicks += 1;
    track(
      post(`${gateway.apiUrl}/sandbox/inbound/batch`, instance.headers, { messages: texts }).then((status) => count(`inbound ${status}`)),
    );
  }, 250);
  cleanups.push('stopped the load', () => {
    clearInterval(sendTimer);
    clearInterval(inboundTimer);
  });
  while (performance.now() < end) await control.sleep(Math.min(1000, end - performance.now()));
  clearInterval(sendTimer);
  clearInterval(inboundTimer);
  await Promise.all(inFlight);
  await settle('after the load');
  const loadSeconds = (performance.now() - start) / 1000;
  const cpuUse = await cpu.stop();
  const pgActivity = await activity.stop();
  const redisAfter = await redisPrefixBytes(gateway.infra.redisUrl, gateway.infra.queuePrefix);
  await db.query('CHECKPOINT');
  const walBytes = await walBytesSince(db, lsn);
  const after = await tableSizes(db);

  const accepted = answers[201] ?? 0;
  const inboundAccepted = inbound; // every batch answered 2xx is checked below
  const refused = Object.entries(answers).filter(([status]) => !['201', 'inbound 200', 'inbound 201', 'inbound 202'].includes(status));
  if (refused.length > 0) throw new Error(`some requests were refused: ${JSON.stringify(answers)}`);
  const messagesInRun = accepted + inboundAccepted;
  // One "unit" of the mix is a send and its inbound messages; the reference profile has 1,440 units per instance-day.
  const unitsPerInstanceDay = REFERENCE.sendsPerMinute * 60 * 24;
  const perInstanceDay = (delta) => (delta / accepted) * unitsPerInstanceDay;
  const defaults = shippedDefaults();
  const tables = Object.keys(after)
    .map((name) => {
      const rows = after[name].rows - (before[name]?.rows ?? 0);
      const bytes = Math.max(0, after[name].bytes - (before[name]?.bytes ?? 0));
      return {
        name,
        // Rows that come with traffic (at least one per ten messages) scale with days; the rest (a chat per new contact,
        // counters, the bloat of rows updated in place until autovacuum) come once per instance or contact.
        kind: name.startsWith('sandbox_') ? 'sandbox' : rows >= messagesInRun / 10 ? 'traffic' : 'instance',
        rowsPerInstanceDay: perInstanceDay(rows),
        bytesPerInstanceDay: perInstanceDay(bytes),
        bytesPerInstance: bytes / instanceCount,
        retentionDays: retentionDays(name, defaults),
      };
    })
    .filter((row) => row.rowsPerInstanceDay > 0 || row.bytesPerInstanceDay > 0);
  // The sandbox's own tables stand in for the phone and the network; a real instance writes none of them.
  const traffic = tables.filter((row) => row.kind === 'traffic');
  const cpuSecondsPerMessage = (group) => ((cpuUse.groups[group] / 100) * cpuUse.seconds) / messagesInRun;
  const perMessage = {
    walBytes: walBytes / messagesInRun,
    postgresCpuMs: cpuSecondsPerMessage('postgres') * 1000,
    apiCpuMs: cpuSecondsPerMessage('api') * 1000,
    workerCpuMs: cpuSecondsPerMessage('worker') * 1000,
  };
  const messagesPerSecondInRun = messagesInRun / loadSeconds;
  const busyBackends = Object.values(pgActivity.averageBackends).reduce((sum, value) => sum + value, 0);
  const redisBytesPerInstance = Math.max(0, redisAfter.bytes) / instanceCount;

  const sizing = FLEET_SIZES.map((fleet) => {
    const messagesPerSecond = (fleet * REFERENCE_MESSAGES_PER_DAY) / 86_400;
    const cores = (cpuMsPerMessage) => (cpuMsPerMessage / 1000) * messagesPerSecond;
    const newBytesPerDay = traffic.reduce((sum, row) => sum + row.bytesPerInstanceDay * fleet, 0);
    const retained = traffic.reduce((sum, row) => sum + row.bytesPerInstanceDay * fleet * (row.retentionDays ?? 0), 0);
    const grows = traffic.filter((row) => row.retentionDays === null).reduce((sum, row) => sum + row.bytesPerInstanceDay * fleet, 0);
    const workers = Math.max(1, Math.ceil(cores(perMessage.workerCpuMs) / TARGET_UTILISATION));
    const apis = Math.max(2, Math.ceil(cores(perMessage.apiCpuMs) / TARGET_UTILISATION));
    // Busy backends scale with the message rate (Little's law: busy = rate x time in the database per message).
    const serverConnections = Math.max(4, Math.ceil((busyBackends / messagesPerSecondInRun) * messagesPerSecond * 2));
    return {
      instances: fleet,
      messagesPerSecond,
      postgresCores: cores(perMessage.postgresCpuMs) / TARGET_UTILISATION,
      walPerDay: perMessage.walBytes * messagesPerSecond * 86_400,
      newBytesPerDay,
      retainedBytes: retained,
      unprunedGrowthPerDay: grows,
      serverConnections,
      redisBytes: redisBytesPerInstance * fleet,
      workers,
      apis,
    };
  });

  const summary = {
    environment: environmentLine(),
    minutes,
    sendRate,
    inboundPerSend,
    instances: instanceCount,
    answers,
    accepted,
    inbound: inboundAccepted,
    deliveries: receiver.stats.requests,
    walBytes,
    cpu: cpuUse,
    busyBackends,
    redis: { before: redisBefore, after: redisAfter },
    perMessage,
    tables,
    sizing,
  };
  if (jsonOutput) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(
      `\ncapacity: ${sendRate} sends/s + ${sendRate * inboundPerSend} inbound/s over ${instanceCount} instances for ${minutes} min ` +
        `(${accepted} sends, ${inboundAccepted} inbound, ${receiver.stats.requests} webhook deliveries); ${environmentLine()}\n`,
    );
    console.log('tables that grow with traffic, at the reference profile (1 send + 3 inbound a minute per instance):');
    console.log(
      table([
        ['table', 'rows / instance / day', 'bytes / instance / day', 'default retention'],
        ...traffic.map((row) => [
          row.name,
          fixed(row.rowsPerInstanceDay),
          human(row.bytesPerInstanceDay),
          row.retentionDays === null ? NOT_PRUNED_BY_AGE : `${fixed(row.retentionDays, 1)} d`,
        ]),
      ]),
    );
    console.log('\ntables that grow with instances and contacts, or stand in for the network in the sandbox (left out of the sizing):');
    console.log(
      table([
        ['table', 'kind', 'rows added', 'bytes added / instance'],
        ...tables
          .filter((row) => row.kind !== 'traffic')
          .map((row) => [
            row.name,
            row.kind,
            fixed((row.rowsPerInstanceDay / unitsPerInstanceDay) * accepted),
            human(row.bytesPerInstance),
          ]),
      ]),
    );
    console.log(
      `\nper message (send or inbound): WAL ${fixed(perMessage.walBytes)} bytes, PostgreSQL CPU ${fixed(perMessage.postgresCpuMs, 3)} ms, ` +
        `API CPU ${fixed(perMessage.apiCpuMs, 3)} ms, worker CPU ${fixed(perMessage.workerCpuMs, 3)} ms; ` +
        `busy PostgreSQL backends ${fixed(busyBackends, 2)} on average at ${fixed(messagesPerSecondInRun)} messages/s; ` +
        `Redis ${human(redisAfter.bytes)} in ${redisAfter.keys} keys after the run (${human(redisBytesPerInstance)} per instance)`,
    );
    console.log(`\nsizing at the reference profile, each process at most ${TARGET_UTILISATION * 100} % of a core in steady state:`);
    console.log(
      table([
        [
          'instances',
          'messages/s',
          'PostgreSQL cores',
          'WAL / day',
          'new table data / day',
          'disk at default retention',
          'unpruned growth / day',
          'server connections (pooler)',
          'Redis',
          'workers',
          'API replicas',
        ],
        ...sizing.map((row) => [
          String(row.instances),
          fixed(row.messagesPerSecond),
          fixed(row.postgresCores, 1),
          human(row.walPerDay),
          human(row.newBytesPerDay),
          human(row.retainedBytes),
          human(row.unprunedGrowthPerDay),
          String(row.serverConnections),
          human(row.redisBytes),
          String(row.workers),
          String(row.apis),
        ]),
      ]),
    );
    console.log(`answers: ${JSON.stringify(answers)}\n`);
  }
  exitCode = 0;
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
