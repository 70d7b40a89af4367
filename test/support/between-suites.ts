import { Client } from 'pg';
import { testEnv } from './environment';

/**
 * The suites of one Jest worker run one after another on that worker's database (test/support/jest-environment.ts),
 * and each stops the apps it started, but a worker a suite killed (`kill -9` tests, a stop that timed out) leaves its
 * shard leases, its membership and the maintenance lease live until they expire: 15 s and 30 min by default. The next
 * suite's worker would wait that long for those shards (its instances answer 503 meanwhile) or never run the
 * maintenance. No worker of an earlier suite is running when a suite starts, so whatever such a worker still holds in
 * the database ends here. A suite on its Jest worker's shared stack (test/support/world-suite.ts) uses the stack's own
 * database, whose worker is alive and keeps its leases.
 */
beforeAll(async () => {
  if (process.env.TEST_SHARED_STACK) return;
  const db = new Client({ connectionString: testEnv().DATABASE_URL });
  await db.connect();
  try {
    await db.query('UPDATE shard_leases SET expires_at = clock_timestamp() WHERE expires_at > clock_timestamp()');
    await db.query('UPDATE shard_workers SET expires_at = clock_timestamp() WHERE expires_at > clock_timestamp()');
    await db.query('UPDATE maintenance_leases SET expires_at = clock_timestamp() WHERE expires_at > clock_timestamp()');
  } finally {
    await db.end();
  }
});
