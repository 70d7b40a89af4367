import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScratchDatabase } from './repositories/scratch-database';
import { subPrefix } from './support/environment';
import { freePort, spawnApp } from './support/processes';

const ROOT = join(__dirname, '..');

interface DevRun {
  code: number | null;
  output: string;
}

interface DemoFile {
  customer: { id: string; apiKey: string | null };
  instance: { id: string; apiKey: string } | null;
}

/** `npm run dev` as a developer starts it, on this suite's own database, until its banner commands have been checked. */
async function runDev(env: Record<string, string>): Promise<DevRun> {
  const [port, workerPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['scripts/dev.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      DEV_EXIT_WHEN_READY: '1',
      PORT: String(port),
      WORKER_HEALTH_PORT: String(workerPort),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output };
}

/** Calls one export of a scripts/lib module (ES modules, which this CommonJS test cannot import) and returns its JSON answer. */
function callScriptModule(module: string, expression: string): unknown {
  const source = `import * as lib from './scripts/lib/${module}'; console.log(JSON.stringify(${expression}));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as unknown;
}

describe('npm run dev', () => {
  const database = new ScratchDatabase('dev');
  const stateDir = mkdtempSync(join(tmpdir(), 'mgw-dev-start-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    await database.create();
    env = { DATABASE_URL: database.url, QUEUE_PREFIX: subPrefix('dev'), DEV_STATE_DIR: stateDir };
    // npm test built dist/ from these sources: record that, as a dev start after its own build would.
    callScriptModule('build-freshness.mjs', 'lib.recordBuild(process.cwd(), lib.sourceFingerprint(process.cwd())) ?? true');
  });

  afterAll(async () => {
    await database.drop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('keeps the same demo account after the customer key is rotated, with banner commands that work, and skips an unchanged build', async () => {
    const first = await runDev(env);
    expect({ code: first.code, tail: first.output.slice(-2000) }).toEqual({
      code: 0,
      tail: expect.stringContaining('reached the sandbox outbox'),
    });
    expect(first.output).toContain('no source changed since the last build: skipping npm run build');
    const before = JSON.parse(readFileSync(join(stateDir, 'demo.json'), 'utf8')) as DemoFile;
    expect(before.customer.apiKey).toEqual(expect.any(String));

    const api = await spawnApp('api', { DATABASE_URL: database.url, QUEUE_PREFIX: env.QUEUE_PREFIX });
    try {
      const rotated = await fetch(`${api.url}/account/apikey/rotate`, {
        method: 'POST',
        headers: { 'X-Api-Key': before.customer.apiKey! },
      });
      expect(rotated.status).toBe(200);
    } finally {
      await api.stop();
    }

    const second = await runDev(env);
    expect({ code: second.code, tail: second.output.slice(-2000) }).toEqual({
      code: 0,
      tail: expect.stringContaining('reached the sandbox outbox'),
    });
    expect(second.output).toContain(`the demo customer's key was rotated (in the dashboard?); keeping demo customer ${before.customer.id}`);
    expect(second.output).not.toContain('creating new demo data');
    expect(second.output).not.toContain('created demo customer');
    const after = JSON.parse(readFileSync(join(stateDir, 'demo.json'), 'utf8')) as DemoFile;
    expect(after).toEqual({ ...before, customer: { ...before.customer, apiKey: null } });
    expect(second.output).toContain('key rotated in the dashboard');
    // Two whole `npm run dev` starts (migrations, an API and a worker each) beside the other suites.
  }, 180_000);

  it('prints one short line per request and none for the console’s own successful requests', () => {
    const line = (record: object) => callScriptModule('dev-log.mjs', `lib.formatDevLogLine(${JSON.stringify(JSON.stringify(record))})`);
    const time = Date.UTC(2026, 10, 27, 12, 0, 0);
    const request = {
      level: 30,
      time,
      req: { id: 'r1', method: 'POST', url: '/messages/text' },
      res: { statusCode: 202 },
      responseTime: 4,
      msg: 'request completed',
    };
    expect(line(request)).toMatch(/^\d\d:\d\d:\d\d 202 POST \/messages\/text 4 ms$/);
    expect(line({ ...request, req: { ...request.req, client: 'console' } })).toBeNull();
    expect(line({ level: 30, time, context: 'RouterExplorer', msg: 'Mapped {/messages/text, POST} route' })).toBeNull();
    expect(line({ ...request, req: { ...request.req, client: 'console' }, res: { statusCode: 400 } })).toMatch(
      / 400 POST \/messages\/text 4 ms$/,
    );
    expect(
      line({ level: 40, time, msg: 'redis: connection lost', err: { message: 'connect ECONNREFUSED', stack: 'Error\n    at x' } }),
    ).toMatch(/^\d\d:\d\d:\d\d WARN {2}redis: connection lost: connect ECONNREFUSED$/);
  });
});
