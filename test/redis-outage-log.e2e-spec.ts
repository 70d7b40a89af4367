import { setTimeout as sleep } from 'node:timers/promises';
import { spawnApp, startPrivateRedis, type AppProcess, type PrivateRedis } from './support/processes';
import { ScratchDatabase } from './repositories/scratch-database';

/** After Redis dies, a worker logs each connection's outage once, not once per reconnect attempt. */
describe('a worker whose Redis dies', () => {
  let redis: PrivateRedis;
  let worker: AppProcess;
  // Its own database: in the run's, the worker would resume the instances of earlier suites, and each session's own
  // failures (not the connections' outage this test counts) would be logged too.
  const scratch = new ScratchDatabase('redisout');

  beforeAll(async () => {
    await scratch.create();
    await scratch.migrate();
    redis = await startPrivateRedis();
    worker = await spawnApp('worker', { DATABASE_URL: scratch.url, REDIS_URL: redis.url, LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await redis?.kill();
    await scratch.drop();
  });

  it('writes one line per connection that lost Redis within 5 s, however often it retries', async () => {
    const from = worker.output().length;
    await redis.kill();
    await sleep(5_000);
    const refused = worker
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => line.includes('ECONNREFUSED'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    // Each source (a named connection, a queue) says so once: "redis send-consumer: connect ECONNREFUSED ...".
    const sources = refused.map((msg) => msg.slice(0, msg.indexOf(': ')));
    expect(refused.length).toBeGreaterThan(0);
    expect(sources.filter((source, index) => sources.indexOf(source) !== index)).toEqual([]);
    expect(refused.length).toBeLessThanOrEqual(20);
  });
});
