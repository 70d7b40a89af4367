import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/**
 * A real proxy server on loopback, started with a private configuration and log: Debian's `tinyproxy` (HTTP CONNECT) or
 * `dante-server` (`danted`, SOCKS5). Its own log is what proves traffic went through it.
 */
export interface OutboundProxy {
  port: number;
  /** `http://[user:password@]127.0.0.1:<port>` or `socks5://127.0.0.1:<port>`. */
  url: string;
  /** The proxy's log so far. */
  log(): string;
  /** The `host:port` targets of the tunnels it opened, in order. */
  tunnels(): string[];
  stop(): Promise<void>;
}

export interface TinyproxyOptions {
  /** Basic credentials the proxy insists on (`BasicAuth`); none when absent. */
  credentials?: { user: string; password: string };
  /** The source address of its outgoing connections (`Bind`), e.g. 127.0.0.3, so a peer can tell them apart. */
  bind?: string;
}

/** Its user must be able to write the log: the proxies drop root and run as `nobody`. */
function privateDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o777);
  return dir;
}

async function listening(port: number, child: ChildProcess, output: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the proxy exited with ${child.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the proxy did not listen on ${port} within ${timeoutMs} ms:\n${output()}`);
}

function running(child: ChildProcess, dir: string, port: number, url: string, logPath: string, tunnelPattern: RegExp): OutboundProxy {
  const log = () => {
    try {
      return readFileSync(logPath, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    port,
    url,
    log,
    tunnels: () => [...log().matchAll(tunnelPattern)].map((match) => match[1]),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `tinyproxy` 1.11 in the foreground on a free loopback port; every CONNECT it serves is in its log. */
export async function startTinyproxy(options: TinyproxyOptions = {}): Promise<OutboundProxy> {
  const dir = privateDirectory('tinyproxy-');
  const port = await freePort();
  const logPath = join(dir, 'tinyproxy.log');
  const lines = [
    'User nobody',
    'Group nogroup',
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 120',
    `LogFile "${logPath}"`,
    'LogLevel Connect',
    'MaxClients 200',
    // No ConnectPort line: CONNECT to every port (the fake network listens on random ones).
    ...(options.credentials ? [`BasicAuth ${options.credentials.user} ${options.credentials.password}`] : []),
    ...(options.bind ? [`Bind ${options.bind}`] : []),
  ];
  const config = join(dir, 'tinyproxy.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child = spawn('tinyproxy', ['-d', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await listening(port, child, () => output);
  const credentials = options.credentials ? `${options.credentials.user}:${options.credentials.password}@` : '';
  return running(
    child,
    dir,
    port,
    `http://${credentials}127.0.0.1:${port}`,
    logPath,
    /Request \(file descriptor \d+\): CONNECT (\S+) HTTP/g,
  );
}

/**
 * `danted` (dante-server 1.4) in the foreground on a free loopback port, without authentication (SOCKS5 credentials
 * need a system user with a password; credentials are tested on tinyproxy). `external` is the source address of its
 * outgoing connections.
 */
export async function startDante(options: { external: string }): Promise<OutboundProxy> {
  const dir = privateDirectory('danted-');
  const port = await freePort();
  const logPath = join(dir, 'danted.log');
  const config = join(dir, 'danted.conf');
  writeFileSync(
    config,
    [
      `logoutput: ${logPath}`,
      `internal: 127.0.0.1 port = ${port}`,
      `external: ${options.external}`,
      'socksmethod: none',
      'clientmethod: none',
      'user.privileged: root',
      'user.unprivileged: nobody',
      'client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 log: connect disconnect error }',
      'socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 log: connect disconnect error }',
      '',
    ].join('\n'),
  );
  const child = spawn('danted', ['-f', config, '-p', join(dir, 'danted.pid')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await listening(port, child, () => output);
  // `tcp/connect [: <client> <proxy> -> <external> <target>`: dante writes host.port; the target as host:port.
  const pattern = /tcp\/connect \[: \S+ \S+ -> \S+ (\d+\.\d+\.\d+\.\d+)\.(\d+)/g;
  const proxy = running(child, dir, port, `socks5://127.0.0.1:${port}`, logPath, pattern);
  return {
    ...proxy,
    tunnels: () => [...proxy.log().matchAll(pattern)].map((match) => `${match[1]}:${match[2]}`),
  };
}
