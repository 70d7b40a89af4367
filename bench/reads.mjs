#!/usr/bin/env node
// Reads and refusals at the framework floor: GET /session/status of instances in every state, the sends the connection
// gate refuses (403, 409, 503) and GET /account/instances (a page of 20), each against a bare NestJS GET or POST measured
// in the same round with the same load (autocannon, keep-alive, loopback only).
//
//   npm run build && node bench/reads.mjs [--json] [--target=evolution|waha --target-url=URL --target-key=KEY
//                                                  --target-instances=paired=NAME,unpaired=NAME,...]
//
//   bare GET       GET /bare on a minimal Nest app (bench/bare-app.mjs, its own process)
//   bare POST      POST /bare/messages {to, message} on the same app (201 {id})
//   status, X      GET /session/status with the key of an instance that is X: paired (connected), unpaired (created,
//                  never paired), pairing (a QR code asked for and not scanned), disconnected (paired, the phone offline)
//   refused 403    POST /messages/text on the unpaired instance (device not paired)
//   refused 409    POST /messages/buttons on the unpaired instance (device not paired, the conflict form)
//   refused 503    POST /messages/text on the disconnected instance (instance unavailable)
//   list of 20     GET /account/instances?pageSize=20 with the customer key, the customer having 25 instances (after the
//                  first read, answered from the API's page cache once PostgreSQL confirms the customer's instances version)
// Each status case is reported as a ratio to the bare GET, each refused send to the bare POST (goal >= 0.8), the list to
// the paired status read (goal >= 0.5). With --target (see bench/peer-target.mjs) the peer's status reads and refused
// sends of its instances in the same states run in the same rounds and are reported the same way; their answers are
// counted by status code, whatever they are.
// The built API runs in its own process with a fresh database and Redis prefix, a rate limit too high to be reached and
// LOG_LEVEL=warn (so no per-request log lines). Settings (environment): BENCH_DURATION seconds per slice (5),
// BENCH_WARMUP seconds before an item's first slice (3), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3): in each round every
// case is measured right next to its floor (the order of the two alternating between rounds), its ratio taken from that
// pair, and the medians over the rounds reported, so that load from elsewhere on the machine, which drifts over minutes,
// hits both sides of a ratio alike.
// BENCH_CASES=status,refused,list (comma-separated groups, default all). Everything created is removed at the end.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import * as gw from './gateway.mjs';
import { peerTarget } from './peer-target.mjs';

const { environmentLine, fixed, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const env = gw.envInt;
const duration = env('BENCH_DURATION', 5, 1, 600);
const warmup = env('BENCH_WARMUP', 3, 0, 600);
const connections = env('BENCH_CONNECTIONS', 50, 1, 10_000);
const roundCount = env('BENCH_ROUNDS', 3, 1, 20);
const groups = new Set((process.env.BENCH_CASES ?? 'status,refused,list').split(',').map((group) => group.trim()));
const peer = peerTarget(argv);
const caseCount = 2 + (groups.has('status') ? 4 : 0) + (groups.has('refused') ? 3 : 0) + (groups.has('list') ? 1 : 0) + (peer ? 6 : 0);
const { cleanups, control } = gw.boundedRun(log, (caseCount * (warmup + 2 * roundCount * duration) + 300) * 1000);
let current = null;
control.onStop(() => current?.stop());

async function load(item, seconds) {
  current = autocannon({
    url: item.url,
    method: item.method,
    headers: item.body ? { 'content-type': 'application/json', ...item.headers } : item.headers,
    ...(item.body ? { body: JSON.stringify(item.body) } : {}),
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
  });
  try {
    return await current;
  } finally {
    current = null;
  }
}

const codesOf = (result) => Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
const { median } = gw;

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'reads', processes });
  const bare = await gw.startBareApp({ cleanups, env: gw.inheritedEnv() });
  await bare.ready();
  const api = gateway.apiUrl;
  // Two paired instances (one then taken offline) and 23 created ones: the customer has 25, the list page shows 20.
  const { customer, instances } = await gw.pairedInstances(gateway, 2, { control, log });
  const created = [];
  for (let n = 0; n < 23; n += 1) {
    const instance = gw.expectStatus(
      'POST /account/instances',
      await gw.request(`${api}/account/instances`, {
        method: 'POST',
        headers: { 'X-Api-Key': customer.apiKey },
        body: { name: `reads ${n} ${randomBytes(2).toString('hex')}`, sandbox: true },
      }),
      201,
    );
    created.push({ id: instance.id, headers: { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id } });
  }
  const [paired, disconnected] = instances;
  const [unpaired, pairing] = created;
  gw.expectStatus(
    'POST /sandbox/connection offline',
    await gw.request(`${api}/sandbox/connection`, { method: 'POST', headers: disconnected.headers, body: { state: 'offline' } }),
    204,
  );
  const statusOf = async (instance) =>
    gw.expectStatus('GET /session/status', await gw.request(`${api}/session/status`, { headers: instance.headers }), 200);
  for (const deadline = Date.now() + 30_000; ; await control.sleep(100)) {
    const status = await statusOf(disconnected);
    if (status.isLoggedIn && !status.isConnected) break;
    if (Date.now() > deadline) throw new Error(`the offline instance still reads ${JSON.stringify(status)}`);
  }
  // A pairing lasts two minutes on the sandbox (six QR codes); it is asked for again before each of its measurements.
  const askForQr = async () =>
    gw.expectStatus(
      'GET /session/qr/text',
      await gw.request(`${api}/session/qr/text`, { headers: pairing.headers, timeoutMs: 20_000 }),
      200,
    );
  await askForQr();

  const text = { to: '447700900123', message: 'bench' };
  const buttons = { to: '447700900123', text: 'bench', buttons: [{ id: 'yes', text: 'Yes' }] };
  const get = (url, headers) => ({ method: 'GET', url, headers });
  const post = (url, headers, body) => ({ method: 'POST', url, headers, body });
  const cases = [
    { key: 'bareGet', label: 'bare Nest GET', ...get(`${bare.url}/bare`, {}), expect: 200 },
    { key: 'barePost', label: 'bare Nest POST', ...post(`${bare.url}/bare/messages`, {}, text), expect: 201 },
  ];
  if (groups.has('status')) {
    for (const [state, instance] of Object.entries({ paired, unpaired, pairing, disconnected })) {
      cases.push({
        key: `status.${state}`,
        label: `status, ${state}`,
        ...get(`${api}/session/status`, instance.headers),
        expect: 200,
        floor: 'bareGet',
        ...(state === 'pairing' ? { before: askForQr } : {}),
      });
    }
  }
  if (groups.has('refused')) {
    cases.push(
      {
        key: 'refused.403',
        label: 'refused 403 (text, unpaired)',
        ...post(`${api}/messages/text`, unpaired.headers, text),
        expect: 403,
        floor: 'barePost',
      },
      {
        key: 'refused.409',
        label: 'refused 409 (buttons, unpaired)',
        ...post(`${api}/messages/buttons`, unpaired.headers, buttons),
        expect: 409,
        floor: 'barePost',
      },
      {
        key: 'refused.503',
        label: 'refused 503 (text, offline)',
        ...post(`${api}/messages/text`, disconnected.headers, text),
        expect: 503,
        floor: 'barePost',
      },
    );
  }
  if (groups.has('list')) {
    cases.push({
      key: 'list',
      label: 'list of 20 (of 25)',
      ...get(`${api}/account/instances?pageSize=20`, { 'X-Api-Key': customer.apiKey }),
      expect: 200,
      floor: 'status.paired',
      goal: 0.5,
    });
  }
  if (peer) {
    for (const state of ['paired', 'unpaired', 'pairing', 'disconnected']) {
      const read = peer.status(state);
      if (read)
        cases.push({ key: `peer.status.${state}`, label: `${peer.kind}: status, ${state}`, ...read, expect: null, floor: 'bareGet' });
    }
    for (const state of ['unpaired', 'disconnected']) {
      const send = peer.sendText(state);
      if (send)
        cases.push({ key: `peer.refused.${state}`, label: `${peer.kind}: send, ${state}`, ...send, expect: null, floor: 'barePost' });
    }
  }

  // Every case answers what it is meant to before it is loaded.
  for (const item of cases) {
    await item.before?.();
    const answer = await gw.request(item.url, { method: item.method, headers: item.headers, body: item.body, timeoutMs: 20_000 });
    if (item.expect !== null) gw.expectStatus(item.label, answer, item.expect);
    else log(`${item.label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
  }
  const listed = cases.find((item) => item.key === 'list');
  if (listed) {
    const page = (await gw.request(listed.url, { headers: listed.headers })).body;
    if (page.items?.length !== 20 || page.totalCount !== 25)
      throw new Error(`the list page is not 20 of 25: ${JSON.stringify(page).slice(0, 200)}`);
  }

  // Each case is measured right next to its floor (the floor first in rounds 1, 3, ..., second in rounds 2, 4, ...), its ratio
  // taken from that pair: on a shared, loaded machine the load drifts over minutes, much less over two slices.
  const byKey = Object.fromEntries(cases.map((item) => [item.key, item]));
  const compared = cases.filter((item) => item.floor);
  const warmed = new Set();
  const measure = async (item, round) => {
    control.check();
    await item.before?.();
    if (!warmed.has(item.key) && warmup > 0) await load(item, warmup);
    warmed.add(item.key);
    log(`round ${round + 1}: ${item.label}`);
    const result = await load(item, duration);
    const codes = codesOf(result);
    const total = Object.values(codes).reduce((sum, count) => sum + count, 0);
    return {
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      codes,
      failures: (item.expect === null ? 0 : total - (codes[item.expect] ?? 0)) + result.errors + result.timeouts,
    };
  };
  const samples = Object.fromEntries(cases.map((item) => [item.key, []]));
  const ratios = Object.fromEntries(compared.map((item) => [item.key, []]));
  for (let round = 0; round < roundCount; round += 1) {
    for (let i = 0; i < compared.length; i += 1) {
      const item = compared[(i + round) % compared.length];
      const floor = byKey[item.floor];
      const pair = round % 2 === 0 ? [floor, item] : [item, floor];
      const [first, second] = [await measure(pair[0], round), await measure(pair[1], round)];
      const [floorResult, caseResult] = round % 2 === 0 ? [first, second] : [second, first];
      samples[floor.key].push(floorResult);
      samples[item.key].push(caseResult);
      ratios[item.key].push(caseResult.requestsPerSecond / floorResult.requestsPerSecond);
    }
  }
  const sumCodes = (key) => {
    const sum = {};
    for (const sample of samples[key]) for (const [code, count] of Object.entries(sample.codes)) sum[code] = (sum[code] ?? 0) + count;
    return sum;
  };
  const summary = {
    environment: environmentLine(),
    connections,
    durationSeconds: duration,
    rounds: roundCount,
    ...(peer ? { peer: { kind: peer.kind, baseUrl: peer.baseUrl, instances: peer.instances } } : {}),
    results: cases.map((item) => ({
      key: item.key,
      label: item.label,
      requestsPerSecond: median(samples[item.key].map((sample) => sample.requestsPerSecond)),
      p50: median(samples[item.key].map((sample) => sample.p50)),
      p99: median(samples[item.key].map((sample) => sample.p99)),
      codes: sumCodes(item.key),
      failures: samples[item.key].reduce((sum, sample) => sum + sample.failures, 0),
      ...(item.floor ? { floor: item.floor, ratio: median(ratios[item.key]), goal: item.goal ?? 0.8, perRound: ratios[item.key] } : {}),
    })),
  };
  if (jsonOutput) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(
      `\nreads: ${duration} s per slice, each case next to its floor, ${connections} connections, ${roundCount} round(s), medians; ${environmentLine()}\n`,
    );
    console.log(
      table(
        [
          ['case', 'req/s', 'p50 ms', 'p99 ms', 'answers', 'ratio', 'to', 'goal', 'per round'],
          ...summary.results.map((r) => [
            r.label,
            fixed(r.requestsPerSecond),
            fixed(r.p50, 1),
            fixed(r.p99, 1),
            Object.entries(r.codes)
              .map(([code, count]) => `${code}:${count}`)
              .join(' '),
            r.floor ? fixed(r.ratio, 2) : '',
            r.floor ? byKey[r.floor].label : '',
            r.floor ? `>= ${r.goal}` : '',
            r.floor ? r.perRound.map((ratio) => fixed(ratio, 2)).join(' ') : '',
          ]),
        ],
        [0, 4, 6],
      ),
    );
    console.log('');
  }
  const failed = summary.results.filter((r) => r.failures > 0);
  exitCode = gw.verdict(
    log,
    failed.length > 0
      ? [`some answers were not the expected status (${failed.map((r) => r.label).join(', ')}); the numbers are not valid`]
      : [],
  );
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
