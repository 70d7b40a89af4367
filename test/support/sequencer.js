// Orders the suites of a Jest run longest first, so that with several workers the long suites start early and the run
// does not end with one worker finishing a long suite alone. Jest's own order uses the times it cached from earlier
// runs of the same checkout, which a fresh clone (CI) does not have; these come from the reports of the runs
// scripts/test.mjs kept (.test-tmp/runs/, newest first) and, for suites not in them, from test/suite-durations.json, which is
// refreshed from such a report now and then (`node scripts/suite-durations.mjs`). A suite in neither goes by its size,
// as in Jest's own order.
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..', '..');

function knownDurations() {
  const durations = JSON.parse(readFileSync(join(ROOT, 'test', 'suite-durations.json'), 'utf8'));
  const runs = join(ROOT, '.test-tmp', 'runs');
  if (!existsSync(runs)) return durations;
  // Oldest first, so the newest time of each suite stands.
  const reports = readdirSync(runs)
    .sort()
    .flatMap((run) =>
      readdirSync(join(runs, run))
        .filter((name) => /^jest-.*\.json$/.test(name))
        .map((name) => join(runs, run, name)),
    );
  for (const report of reports) {
    try {
      const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
      for (const { name, startTime, endTime } of testResults) durations[relative(ROOT, name)] = (endTime - startTime) / 1000;
    } catch {
      // A report cut short by an interrupted run: the committed times stand.
    }
  }
  return durations;
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const durations = knownDurations();
    // Unknown suites: about a second per 2 KB of source, so a large new suite is not left to the end.
    const expected = (test) => durations[relative(ROOT, test.path)] ?? statSync(test.path).size / 2048;
    return [...tests].sort((a, b) => expected(b) - expected(a));
  }
}

module.exports = LongestFirstSequencer;
