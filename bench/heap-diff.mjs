#!/usr/bin/env node
// What one heap snapshot holds more of than another: objects grouped by constructor (or by node type for strings,
// arrays, closures and native memory), with their count and shallow size in each, largest difference first.
//
//   node bench/heap-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [rows=30]
import { readFileSync } from 'node:fs';

function summarise(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    const size = snapshot.nodes[i + sizeAt];
    total += size;
    // Objects by constructor; the others by type (their names are string contents or code).
    const name = type === 'object' || type === 'native' ? snapshot.strings[snapshot.nodes[i + nameAt]].slice(0, 60) : `(${type})`;
    const key = `${type}:${name}`;
    const group = groups.get(key) ?? { count: 0, size: 0 };
    group.count += 1;
    group.size += size;
    groups.set(key, group);
  }
  return { groups, total };
}

const [beforePath, afterPath, rows = '30'] = process.argv.slice(2);
if (!beforePath || !afterPath) throw new Error('usage: heap-diff.mjs BEFORE AFTER [rows]');
const before = summarise(beforePath);
const after = summarise(afterPath);
const keys = new Set([...before.groups.keys(), ...after.groups.keys()]);
const diff = [...keys].map((key) => {
  const a = before.groups.get(key) ?? { count: 0, size: 0 };
  const b = after.groups.get(key) ?? { count: 0, size: 0 };
  return { key, count: b.count - a.count, size: b.size - a.size, afterSize: b.size };
});
diff.sort((x, y) => Math.abs(y.size) - Math.abs(x.size));
const kib = (bytes) => (bytes / 1024).toFixed(0).padStart(9);
console.log(`total shallow size  ${kib(before.total)} KiB -> ${kib(after.total)} KiB (${kib(after.total - before.total)} KiB)`);
console.log(`${'group'.padEnd(70)}${'Δ count'.padStart(10)}${'Δ KiB'.padStart(10)}${'after KiB'.padStart(10)}`);
for (const row of diff.slice(0, Number(rows)))
  console.log(`${row.key.padEnd(70)}${String(row.count).padStart(10)}${kib(row.size).padStart(10)}${kib(row.afterSize).padStart(10)}`);
