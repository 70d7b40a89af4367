import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';

const ROOT = join(__dirname, '..', '..');

export interface Address {
  host: string;
  port: number;
}

/** A Redis Cluster or Sentinel group started by `scripts/redis-topology.mjs` for one suite, stopped after it. */
export interface RedisTopology {
  mode: 'cluster' | 'sentinel';
  /** What the gateway's processes need to use it (REDIS_MODE and its variables). */
  env: Record<string, string>;
  /** Cluster: every node. Sentinel: master and replica as started. */
  dataNodes: Address[];
  /** The masters now (cluster: all of them; sentinel: the one). */
  masters(): Promise<Address[]>;
  /** SIGKILLs the data node on `port`, as a crash would. */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

interface Described {
  mode: 'cluster' | 'sentinel';
  nodes?: Address[];
  masterName?: string;
  sentinels?: Address[];
  dataNodes?: Address[];
}

const joined = (addresses: Address[]) => addresses.map(({ host, port }) => `${host}:${port}`).join(',');

/** Starts a 6-node cluster (3 masters, 3 replicas) or a Sentinel group (master, replica, 3 sentinels) on loopback. */
export async function startRedisTopology(mode: 'cluster' | 'sentinel'): Promise<RedisTopology> {
  // stdin stays open: the script stops everything when it closes, so even a killed test run leaves no servers behind.
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts', 'redis-topology.mjs'), mode], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waiting: ((line: string) => void)[] = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = (timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-topology did not answer:\n${errors}`)), timeoutMs);
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      void exited.then(() => reject(new Error(`redis-topology exited:\n${errors}`)));
    });
  const ask = async (command: string) => {
    const answer = nextLine(15_000);
    child.stdin!.write(`${command}\n`);
    return JSON.parse(await answer) as Record<string, unknown>;
  };
  const described = JSON.parse(await nextLine(60_000)) as Described;
  const stop = async () => {
    child.stdin!.end();
    await exited;
  };
  if (mode === 'cluster') {
    const nodes = described.nodes!;
    return {
      mode,
      env: {
        REDIS_MODE: 'cluster',
        REDIS_CLUSTER_NODES: joined(nodes.slice(0, 3)),
        REDIS_URL: `redis://${nodes[0].host}:${nodes[0].port}`,
      },
      dataNodes: nodes,
      masters: async () => (await ask('masters')).masters as Address[],
      kill: async (port) => void (await ask(`kill ${port}`)),
      stop,
    };
  }
  const dataNodes = described.dataNodes!;
  return {
    mode,
    env: {
      REDIS_MODE: 'sentinel',
      REDIS_SENTINELS: joined(described.sentinels!),
      REDIS_SENTINEL_MASTER: described.masterName!,
      // Only its scheme and credentials count in sentinel mode: the sentinels name the master.
      REDIS_URL: `redis://127.0.0.1:${dataNodes[1].port}`,
    },
    dataNodes,
    masters: async () => [(await ask('masters')).master as Address],
    kill: async (port) => void (await ask(`kill ${port}`)),
    stop,
  };
}

/** Every key of the deployment, over all masters (for assertions on the key layout). */
export async function keysOf(topology: RedisTopology, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const master of await topology.masters()) {
    const redis = new Redis(master.port, master.host, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
  return keys.sort();
}
