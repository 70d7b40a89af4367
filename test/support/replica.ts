import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';

const isRoot = process.getuid?.() === 0;

/** Debian keeps the server binaries in /usr/lib/postgresql/<version>/bin; some machines link them onto PATH. */
function pgBinary(name: string): string {
  for (const version of ['17', '16', '15']) {
    const candidate = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(candidate)) return candidate;
  }
  return name;
}

/** initdb, pg_ctl and postgres refuse to run as root: as root they run as the postgres user. */
function runPg(name: string, args: string[]): void {
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', pgBinary(name), ...args]] : [pgBinary(name), args];
  const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${name} ${args.join(' ')} failed:\n${result.stderr || result.stdout}`);
}

export interface PrimaryWithReplica {
  /** A URL of the primary for `database`. */
  primaryUrl(database: string): string;
  /** A URL of the streaming replica for `database`. */
  replicaUrl(database: string): string;
  /** Stops replaying WAL: the replica keeps answering, with what it had. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

async function query<T extends object>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A private PostgreSQL primary and a streaming replica of it (`pg_basebackup -R`) on free loopback ports, in a temp
 * directory that `stop()` removes. Private rather than a replica of the shared server: it needs no change to that
 * server's settings and copies nothing of other runs' databases. fsync is off: these are throw-away clusters.
 */
export async function startPrimaryWithReplica(): Promise<PrimaryWithReplica> {
  const root = mkdtempSync(join(tmpdir(), 'mgw-replica-'));
  chmodSync(root, 0o755);
  if (isRoot) {
    const ids = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
    chownSync(root, ids('-u'), ids('-g'));
  }
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const options = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off`;
  const stop = () => {
    for (const dir of started.splice(0).reverse()) {
      try {
        runPg('pg_ctl', ['stop', '-D', dir, '-m', 'immediate', '-w']);
      } catch {
        // Already gone.
      }
    }
    rmSync(root, { recursive: true, force: true });
    return Promise.resolve();
  };
  const primary = (database: string) => `postgresql://postgres@127.0.0.1:${primaryPort}/${database}`;
  const replica = (database: string) => `postgresql://postgres@127.0.0.1:${replicaPort}/${database}`;
  try {
    // initdb's default pg_hba.conf trusts replication connections from 127.0.0.1 when --auth=trust.
    runPg('initdb', ['-D', primaryDir, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    runPg('pg_ctl', [
      'start',
      '-D',
      primaryDir,
      '-w',
      '-l',
      join(root, 'primary.log'),
      '-o',
      `${options(primaryPort)} -c wal_level=replica`,
    ]);
    started.push(primaryDir);
    runPg('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    runPg('pg_ctl', ['start', '-D', replicaDir, '-w', '-l', join(root, 'replica.log'), '-o', `${options(replicaPort)} -c hot_standby=on`]);
    started.push(replicaDir);
  } catch (error) {
    const logs = ['primary.log', 'replica.log'].map((name) => join(root, name)).filter((file) => existsSync(file));
    const tails = logs.map((file) => readFileSync(file, 'utf8').split('\n').slice(-10).join('\n')).join('\n');
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tails}`, { cause: error });
  }
  return {
    primaryUrl: primary,
    replicaUrl: replica,
    pauseReplay: async () => {
      await query(replica('postgres'), 'SELECT pg_wal_replay_pause()');
      for (;;) {
        const [{ state }] = await query<{ state: string }>(replica('postgres'), 'SELECT pg_get_wal_replay_pause_state() AS state');
        if (state === 'paused') return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    resumeReplay: async () => {
      await query(replica('postgres'), 'SELECT pg_wal_replay_resume()');
    },
    caughtUp: async () => {
      const [{ lsn }] = await query<{ lsn: string }>(primary('postgres'), 'SELECT pg_current_wal_lsn()::text AS lsn');
      for (;;) {
        const [{ behind }] = await query<{ behind: boolean }>(
          replica('postgres'),
          `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
        );
        if (!behind) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop,
  };
}
