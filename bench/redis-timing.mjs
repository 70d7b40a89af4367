#!/usr/bin/env node
// What timing every Redis command costs (redis_command_duration_seconds, libs/redis/src/command-timing.ts): the same
// GET load on two connections of one process, one timed into a prom-client histogram as in production, one not,
// alternated round by round so both see the same machine. Prints commands per second of each and their ratio, and the
// median round trip with one command in flight.
//
//   npm run build && node bench/redis-timing.mjs [--rounds=6] [--commands=40000] [--in-flight=200]
//
// REDIS_URL picks the server (else redis://127.0.0.1:6379, else a private one). The one key it reads is deleted at the end.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as services from '../scripts/lib/services.mjs';

const require = createRequire(import.meta.url);
const { Redis } = require('ioredis');
const { Histogram, Registry } = require('prom-client');
const { timeCommands } = require('../dist/libs/redis/src/command-timing.js');

const setting = (name, fallback) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROUNDS = setting('rounds', 6);
const COMMANDS = setting('commands', 40_000);
const IN_FLIGHT = setting('in-flight', 200);

const log = (message) => process.stderr.write(`${message}\n`);
const redis = await services.ensureRedis({
  url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'],
  dir: join(tmpdir(), 'mgw-bench-redis'),
  log,
});
const key = `mgwbench:timing:${randomBytes(4).toString('hex')}`;
const plain = new Redis(redis.url);
const timed = new Redis(redis.url);
const histogram = new Histogram({
  name: 'redis_command_duration_seconds',
  help: 'bench',
  labelNames: ['command'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [new Registry()],
});
// As libs/observability/src/platform-metrics.ts observes: one labelled child per command name, kept.
const children = new Map();
const observe = (command, seconds) => {
  let child = children.get(command);
  if (!child) children.set(command, (child = histogram.labels({ command })));
  child.observe(seconds);
};
timeCommands(timed, () => observe);
// The wrapper alone (clock reads and the callback on each command's promise), without the histogram.
const wrapped = new Redis(redis.url);
timeCommands(wrapped, () => () => undefined);

async function load(client) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < COMMANDS) {
        next += 1;
        await client.get(key);
      }
    }),
  );
  return COMMANDS / ((performance.now() - started) / 1000);
}

async function medianRoundTrip(client, count = 2_000) {
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await client.get(key);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

try {
  await plain.set(key, 'x');
  await load(plain);
  await load(timed);
  await load(wrapped);
  const clients = { plain, wrapped, timed };
  const rates = { plain: [], wrapped: [], timed: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate which goes first, so a drift of the machine's load affects all alike.
    const names = Object.keys(clients);
    const order = [...names.slice(round % 3), ...names.slice(0, round % 3)];
    for (const name of order) rates[name].push(await load(clients[name]));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const plainRate = median(rates.plain);
  const timedRate = median(rates.timed);
  const wrappedRate = median(rates.wrapped);
  const [plainMs, timedMs] = [await medianRoundTrip(plain), await medianRoundTrip(timed)];
  console.log(`GET, ${IN_FLIGHT} in flight, median of ${ROUNDS} rounds of ${COMMANDS}:`);
  console.log(`  untimed ${Math.round(plainRate)} commands/s`);
  console.log(`  wrapped ${Math.round(wrappedRate)} commands/s (timing wrapper, no histogram)`);
  console.log(`  timed   ${Math.round(timedRate)} commands/s`);
  console.log(`  extra CPU per command: ${((1 / timedRate - 1 / plainRate) * 1e6).toFixed(2)} µs`);
  console.log(`  timed / untimed throughput: ${(timedRate / plainRate).toFixed(3)}`);
  console.log(
    `one in flight, median round trip: untimed ${plainMs.toFixed(3)} ms, timed ${timedMs.toFixed(3)} ms (ratio ${(timedMs / plainMs).toFixed(3)})`,
  );
  const observed = (await histogram.get()).values.filter((value) => value.metricName === 'redis_command_duration_seconds_count');
  console.log(`histogram observations: ${observed.reduce((sum, value) => sum + value.value, 0)}`);
} finally {
  await plain.del(key);
  plain.disconnect();
  timed.disconnect();
  wrapped.disconnect();
  if (redis.private) await redis.stop();
}
