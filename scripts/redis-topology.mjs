#!/usr/bin/env node
// Starts a throw-away Redis topology on loopback for tests and benches, prints one JSON line describing it, and keeps it
// running until stdin closes or the process gets SIGTERM/SIGINT; then stops every server and removes its directory.
//   node scripts/redis-topology.mjs cluster|sentinel [dir]
// Cluster: {"mode":"cluster","nodes":[{host,port}×6],"pids":...}; Sentinel: {"mode":"sentinel","masterName",...}.
// Commands on stdin (one per line): `kill <port>` SIGKILLs that node and answers {"killed":port};
// `masters` answers {"masters":[...]} (cluster) or {"master":{host,port}} (sentinel).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startRedisCluster, startRedisSentinelGroup } from './lib/services.mjs';

const mode = process.argv[2];
if (mode !== 'cluster' && mode !== 'sentinel') {
  console.error('usage: node scripts/redis-topology.mjs cluster|sentinel [dir]');
  process.exit(2);
}
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), `mgw-redis-${mode}-`));
const log = (line) => console.error(`redis-topology: ${line}`);
const started = Date.now();
const topology = mode === 'cluster' ? await startRedisCluster({ dir, log }) : await startRedisSentinelGroup({ dir, log });
const describe =
  mode === 'cluster'
    ? { mode, nodes: topology.nodes }
    : { mode, masterName: topology.masterName, sentinels: topology.sentinels, dataNodes: topology.dataNodes };
console.log(JSON.stringify({ ...describe, startMs: Date.now() - started }));

let stopping;
const stop = () => {
  stopping ??= topology.stop().then(() => process.exit(0));
  return stopping;
};
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, stop);
const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const [command, argument] = line.trim().split(/\s+/);
  try {
    if (command === 'kill') {
      await topology.kill(Number(argument));
      console.log(JSON.stringify({ killed: Number(argument) }));
    } else if (command === 'masters') {
      console.log(JSON.stringify(mode === 'cluster' ? { masters: await topology.masters() } : { master: await topology.master() }));
    }
  } catch (error) {
    console.log(JSON.stringify({ error: error.message }));
  }
});
lines.on('close', stop);
