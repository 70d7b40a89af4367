#!/usr/bin/env node
// Event sinks beside webhooks: how many events per second reach a RabbitMQ queue and a NATS JetStream stream, and how
// many reach a webhook receiver, for the same events in the same run.
//
//   npm run build && node bench/sinks.mjs [--events=10000] [--instances=10] [--batch=100] [--concurrency=16] [--json]
//
// The built API and one worker run in their own processes (dist/) with a fresh database and their own Redis key prefix.
// Every instance delivers each event twice: by webhook to a local receiver (HTTP/1.1 keep-alive, answers 200) and to
// its broker sink, half of the instances to the shared RabbitMQ (an exchange and queue of this run's own, removed
// afterwards), half to the shared NATS (a stream of this run's own). Events are inbound text messages injected through
// POST /sandbox/inbound/batch. For each way out, events/s is the number of distinct events that arrived divided by the
// time from the first to the last arrival; p50/p99 are arrival - envelope receivedAt (same clock).
// Exit status 0, 2 when an event did not arrive everywhere or arrived out of order at a broker, 1 on failure.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import { connect as natsConnect, nanos } from 'nats';
import * as gw from './gateway.mjs';

const { environmentLine, fixed, intSetting, percentile, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const events = intSetting(argv, 'events', 'BENCH_EVENTS', 10_000, 1, 1_000_000);
const batchSize = intSetting(argv, 'batch', 'BENCH_BATCH', 100, 1, 1000);
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 10, 2, 1000);
const concurrency = intSetting(argv, 'concurrency', 'BENCH_CONCURRENCY', 16, 1, 10_000);
const deliverTimeout = intSetting(argv, 'deliver-timeout', 'BENCH_DELIVER_TIMEOUT', 180, 1, 3600);
const rabbitUrl = process.env.BENCH_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const natsUrl = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const { cleanups, control } = gw.boundedRun(log, gw.timeoutSetting(argv, 2 * deliverTimeout + 300));

/** First arrival per event id (with its instance), and every arrival in order per instance. */
function arrivals() {
  return { first: new Map(), order: new Map(), repeats: 0 };
}

function note(channel, body) {
  const envelope = JSON.parse(body);
  const at = Date.now();
  if (channel.first.has(envelope.eventId)) channel.repeats += 1;
  else channel.first.set(envelope.eventId, { at, receivedAt: Date.parse(envelope.receivedAt), text: envelope.eventData?.text });
  const order = channel.order.get(envelope.instanceId) ?? [];
  order.push(envelope.eventId);
  channel.order.set(envelope.instanceId, order);
}

function summarise(channel, texts) {
  const arrived = [...channel.first.values()].filter((arrival) => texts.has(arrival.text));
  const first = Math.min(...arrived.map((arrival) => arrival.at));
  const last = Math.max(...arrived.map((arrival) => arrival.at));
  const latency = arrived.map((arrival) => arrival.at - arrival.receivedAt).sort((a, b) => a - b);
  return {
    arrived: arrived.length,
    eventsPerSecond: arrived.length / Math.max(0.001, (last - first) / 1000),
    p50: percentile(latency, 50),
    p99: percentile(latency, 99),
    repeats: channel.repeats,
  };
}

/** The backlog phase takes over the receiver and the consumers (true: taken). */
const hooks = { onWebhook: () => false, onRabbit: () => false, onNats: () => false };

/** Both brokers' arrivals as one way out. */
function merged(...channels) {
  const out = arrivals();
  for (const channel of channels) for (const [eventId, arrival] of channel.first) out.first.set(eventId, arrival);
  out.repeats = channels.reduce((sum, channel) => sum + channel.repeats, 0);
  return out;
}

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'sinks', processes, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log });

  const webhook = arrivals();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!hooks.onWebhook(body)) note(webhook, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push('stopped the receiver', () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));

  const id = randomBytes(4).toString('hex');
  const rabbit = arrivals();
  const amqp = await amqplib.connect(rabbitUrl);
  const channel = await amqp.createChannel();
  const exchange = `bench.sinks.${id}`;
  const queue = `bench.sinks.${id}.all`;
  await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
  await channel.assertQueue(queue, { durable: false });
  await channel.bindQueue(queue, exchange, '#');
  await channel.consume(
    queue,
    (message) => message && !hooks.onRabbit(message.content.toString('utf8')) && note(rabbit, message.content.toString('utf8')),
    { noAck: true },
  );
  cleanups.push('removed the RabbitMQ exchange and queue', async () => {
    await channel.deleteQueue(queue).catch(() => undefined);
    await channel.deleteExchange(exchange).catch(() => undefined);
    await amqp.close();
  });

  const nats = arrivals();
  const natsConnection = await natsConnect({ servers: new URL(natsUrl).host });
  const manager = await natsConnection.jetstreamManager();
  const stream = `BENCH_SINKS_${id.toUpperCase()}`;
  const prefix = `bench.sinks.${id}`;
  await manager.streams.add({ name: stream, subjects: [`${prefix}.>`], duplicate_window: nanos(120_000) });
  // A core subscription sees each message the stream stores as it is published.
  const subscription = natsConnection.subscribe(`${prefix}.>`, {
    callback: (error, message) => !error && !hooks.onNats(message.string()) && note(nats, message.string()),
  });
  cleanups.push('removed the NATS stream', async () => {
    subscription.unsubscribe();
    await manager.streams.delete(stream).catch(() => undefined);
    await natsConnection.close();
  });

  const kindOf = new Map();
  for (const [index, instance] of instances.entries()) {
    const kind = index % 2 === 0 ? 'rabbitmq' : 'nats';
    kindOf.set(instance.id, kind);
    const eventSink =
      kind === 'rabbitmq'
        ? { kind, url: rabbitUrl, exchange, routingKey: '{instanceId}.{eventType}' }
        : { kind, url: natsUrl, subject: `${prefix}.{instanceId}.{eventType}` };
    gw.expectStatus(
      'PUT /instance/settings',
      await gw.request(`${gateway.apiUrl}/instance/settings`, {
        method: 'PUT',
        headers: instance.headers,
        body: {
          useCustomDefaults: false,
          webhookUrl: `http://127.0.0.1:${server.address().port}/hook/${instance.id}`,
          eventFilters: ['message'],
          eventSink,
        },
      }),
      204,
    );
  }

  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  log(`burst: injecting ${events} events on ${instanceCount} instances, ${batchSize} per request, ${concurrency} requests in flight`);
  const texts = new Set();
  const textsBy = { rabbitmq: new Set(), nats: new Set() };
  let next = 0;
  let call = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < events) {
        const first = next;
        next = Math.min(events, next + batchSize);
        const instance = instances[call % instances.length];
        call += 1;
        const batch = [];
        for (let index = first; index < next; index += 1) batch.push(`burst ${index}`);
        for (const text of batch) (texts.add(text), textsBy[kindOf.get(instance.id)].add(text));
        const messages = batch.map((text) => ({ from: '447700900123', type: 'text', text }));
        const { status } = await gw.postJson(agent, `${gateway.apiUrl}/sandbox/inbound/batch`, instance.headers, { messages });
        if (status !== 201) refused += batch.length;
      }
    }),
  );
  const count = (channel, set) => [...channel.first.values()].filter((arrival) => set.has(arrival.text)).length;
  const deadline = Date.now() + deliverTimeout * 1000;
  while (
    (count(webhook, texts) < texts.size ||
      count(rabbit, textsBy.rabbitmq) < textsBy.rabbitmq.size ||
      count(nats, textsBy.nats) < textsBy.nats.size) &&
    Date.now() < deadline
  )
    await control.sleep(100);
  await control.sleep(500);

  const results = {
    webhook: summarise(webhook, texts),
    rabbitmq: summarise(rabbit, textsBy.rabbitmq),
    nats: summarise(nats, textsBy.nats),
    sinks: summarise(merged(rabbit, nats), texts),
  };
  // (2) backlog: every delivery of the burst pending again at once, the webhook's first, then the sinks': delivery alone.
  const burstIds = [...webhook.first.keys()];
  const backlog = { webhook: arrivals(), rabbitmq: arrivals(), nats: arrivals() };
  const phase = { current: 'burst' };
  hooks.onWebhook = (body) => phase.current === 'webhook' && (note(backlog.webhook, body), true);
  hooks.onRabbit = (body) => phase.current === 'sinks' && (note(backlog.rabbitmq, body), true);
  hooks.onNats = (body) => phase.current === 'sinks' && (note(backlog.nats, body), true);
  log(`backlog: ${burstIds.length} webhook deliveries pending again at once`);
  const { rows: reset } = await gateway.db.query(
    `UPDATE webhook_deliveries SET state = 'pending', schedule_step = 0, next_attempt_at = now() WHERE event_id = ANY($1) RETURNING event_id, attempts`,
    [burstIds],
  );
  phase.current = 'webhook';
  const { Queue } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const redis = new Redis(gateway.infra.redisUrl, { maxRetriesPerRequest: null });
  const webhookQueue = new Queue('{webhooks}', { connection: redis, prefix: gateway.infra.queuePrefix }); // WEBHOOK_QUEUE
  await webhookQueue.addBulk(
    reset.map((row) => ({
      name: 'deliver',
      data: { eventId: row.event_id, attempts: row.attempts },
      opts: { jobId: `${row.event_id}.${row.attempts}`, removeOnComplete: true, removeOnFail: true },
    })),
  );
  await webhookQueue.close();
  redis.disconnect();
  const backlogDeadline = () => Date.now() + deliverTimeout * 1000;
  let until = backlogDeadline();
  while (backlog.webhook.first.size < reset.length && Date.now() < until) await control.sleep(50);
  log(`backlog: ${burstIds.length} sink deliveries pending again at once`);
  phase.current = 'sinks';
  await gateway.db.query(
    `UPDATE sink_deliveries SET state = 'pending', schedule_step = 0, next_attempt_at = now() WHERE event_id = ANY($1)`,
    [burstIds],
  );
  until = backlogDeadline();
  while (backlog.rabbitmq.first.size + backlog.nats.first.size < burstIds.length && Date.now() < until) await control.sleep(50);
  await control.sleep(500);
  const backlogResults = {
    webhook: summarise(backlog.webhook, texts),
    rabbitmq: summarise(backlog.rabbitmq, textsBy.rabbitmq),
    nats: summarise(backlog.nats, textsBy.nats),
    sinks: summarise(merged(backlog.rabbitmq, backlog.nats), texts),
  };

  // Per instance, the brokers received the events in the log's order (seq), repeats aside.
  const { rows } = await gateway.db.query('SELECT id, seq::int8 AS seq FROM event_log WHERE id = ANY($1)', [[...webhook.first.keys()]]);
  const seqOf = new Map(rows.map((row) => [row.id, Number(row.seq)]));
  const outOfOrder = (channel) =>
    [...channel.order.values()].filter((order) => {
      const seqs = [...new Set(order)].map((eventId) => seqOf.get(eventId) ?? -1);
      return seqs.some((seq, index) => index > 0 && seq < seqs[index - 1]);
    }).length;
  const summary = {
    environment: environmentLine(),
    events,
    instances: instanceCount,
    refused,
    burst: results,
    backlog: backlogResults,
    outOfOrder: { rabbitmq: outOfOrder(rabbit), nats: outOfOrder(nats) },
  };
  if (jsonOutput) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(
      `\nsinks: ${instanceCount} instances (half RabbitMQ, half NATS JetStream), every event also by webhook; ${environmentLine()}\n`,
    );
    const rows = (phaseName, phaseResults, withLatency) =>
      ['webhook', 'sinks', 'rabbitmq', 'nats'].map((name) => [
        `${phaseName} ${name}`,
        String(phaseResults[name].arrived),
        fixed(phaseResults[name].eventsPerSecond),
        fixed(phaseResults[name].eventsPerSecond / phaseResults.webhook.eventsPerSecond, 2),
        withLatency ? fixed(phaseResults[name].p50) : '-',
        withLatency ? fixed(phaseResults[name].p99) : '-',
        String(phaseResults[name].repeats),
      ]);
    console.log(
      table(
        [
          ['phase, way out', 'arrived', 'events/s', 'vs webhook', 'p50 ms', 'p99 ms', 'repeats'],
          ...rows('(1) burst', results, true),
          ...rows('(2) backlog', backlogResults, false),
        ],
        [0],
      ),
    );
    console.log(
      '\n(1) events injected as fast as the API takes them, each delivered by webhook and by sink; latency = arrival - receivedAt.' +
        '\n(2) the same events pending again at once, by webhook alone, then by sink alone: delivery throughput only.' +
        '\nsinks = RabbitMQ and NATS together (each event goes to one of them); repeats = arrivals of an event already seen.',
    );
    console.log(
      `\n${refused} injections refused; instances out of order: rabbitmq ${summary.outOfOrder.rabbitmq}, nats ${summary.outOfOrder.nats}\n`,
    );
  }
  const problems = [];
  if (results.webhook.arrived < texts.size - refused) problems.push('some webhook deliveries did not arrive');
  if (backlogResults.webhook.arrived < burstIds.length || backlogResults.sinks.arrived < burstIds.length)
    problems.push('some backlog deliveries did not arrive');
  if (results.rabbitmq.arrived < textsBy.rabbitmq.size || results.nats.arrived < textsBy.nats.size)
    problems.push('some sink events did not arrive');
  if (summary.outOfOrder.rabbitmq + summary.outOfOrder.nats > 0) problems.push('a broker received an instance out of order');
  exitCode = gw.verdict(log, problems);
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
