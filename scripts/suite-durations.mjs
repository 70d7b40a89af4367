#!/usr/bin/env node
// Refreshes test/suite-durations.json, the suite times the Jest sequencer (test/support/sequencer.js) orders a fresh
// clone's run by (longest first), from the reports of the newest `npm test` run (.test-tmp/last-run) or the folder
// given. Times are rounded to the second; suites the run did not include keep their old time.
//   node scripts/suite-durations.mjs [run folder]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runDir = resolve(process.argv[2] ?? join(root, '.test-tmp', 'last-run'));
const target = join(root, 'test', 'suite-durations.json');
const durations = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : {};
let updated = 0;
for (const report of readdirSync(runDir).filter((name) => /^jest-.*\.json$/.test(name))) {
  const { testResults = [] } = JSON.parse(readFileSync(join(runDir, report), 'utf8'));
  for (const { name, startTime, endTime } of testResults) {
    durations[relative(root, name)] = Math.max(1, Math.round((endTime - startTime) / 1000));
    updated += 1;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`suite-durations: ${updated} suite times from ${relative(root, runDir)} written to ${relative(root, target)}`);
