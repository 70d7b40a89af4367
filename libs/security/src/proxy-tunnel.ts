import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import { Agent as UndiciAgent, type buildConnector } from 'undici';
import { hostPort, type ProxyEndpoint } from './outbound-proxy';

/** What went wrong with a proxy, as the instance status and the `instance_connection` event name it. */
export const PROXY_FAILURE_REASONS = ['proxy_unreachable', 'proxy_auth_failed', 'proxy_refused'] as const;
export type ProxyFailureReason = (typeof PROXY_FAILURE_REASONS)[number];

/** A tunnel the proxy did not open: the reason says whose move it is (fix the address, the credentials, or the proxy's rules). */
export class ProxyFailure extends Error {
  constructor(
    readonly reason: ProxyFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ProxyFailure';
  }
}

export interface TunnelTarget {
  host: string;
  port: number;
}

/** How long opening a tunnel (TCP to the proxy plus its handshake) may take. */
export const TUNNEL_TIMEOUT_MS = 10_000;

/** Longest CONNECT answer read: a proxy talking without end is not a proxy. */
const MAX_CONNECT_RESPONSE_BYTES = 16 * 1024;

const UNREACHABLE_CODES = ['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE'];

function unreachable(proxy: ProxyEndpoint, cause: string): ProxyFailure {
  return new ProxyFailure('proxy_unreachable', `the proxy ${hostPort(proxy.host, proxy.port)} cannot be reached: ${cause}`);
}

/** A raw TCP stream to `target` through the proxy; rejects with a ProxyFailure when the proxy does not open it. */
export function openTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs = TUNNEL_TIMEOUT_MS): Promise<net.Socket> {
  return proxy.scheme === 'http' ? connectTunnel(proxy, target, timeoutMs) : socksTunnel(proxy, target, timeoutMs);
}

/** HTTP CONNECT (RFC 9110 §9.3.6), with Basic credentials when the URL has a user. */
function connectTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: proxy.host, port: proxy.port });
    let received = Buffer.alloc(0);
    let settled = false;
    const fail = (failure: ProxyFailure) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(failure);
    };
    const timer = setTimeout(() => fail(unreachable(proxy, `no answer within ${timeoutMs} ms`)), timeoutMs);
    const onError = (error: NodeJS.ErrnoException) => fail(unreachable(proxy, error.code ?? error.message));
    const onClose = () => fail(new ProxyFailure('proxy_refused', 'the proxy closed the connection without answering the CONNECT request'));
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) {
        if (received.length > MAX_CONNECT_RESPONSE_BYTES)
          fail(new ProxyFailure('proxy_refused', 'the proxy sent no valid answer to CONNECT'));
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData).off('error', onError).off('close', onClose);
      const statusLine = received.subarray(0, received.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (status === 200) {
        settled = true;
        const rest = received.subarray(end + 4);
        if (rest.length > 0) socket.unshift(rest);
        resolve(socket);
        return;
      }
      // 407 is the standard answer; tinyproxy 1.11 answers a CONNECT with wrong credentials 401.
      if (status === 407 || status === 401)
        fail(new ProxyFailure('proxy_auth_failed', `the proxy refused the credentials (${statusLine})`));
      else
        fail(
          new ProxyFailure(
            'proxy_refused',
            `the proxy refused the tunnel to ${hostPort(target.host, target.port)} (${statusLine || 'no status line'})`,
          ),
        );
    };
    socket.on('data', onData).on('error', onError).on('close', onClose);
    socket.once('connect', () => {
      const authority = hostPort(target.host, target.port);
      const credentials =
        proxy.username === undefined
          ? ''
          : `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`;
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
    });
  });
}

async function socksTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs: number): Promise<net.Socket> {
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: proxy.host,
        port: proxy.port,
        type: 5,
        ...(proxy.username !== undefined ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
      },
      // The name goes to the proxy, which resolves it (the `socks5h` behaviour): the route decides the address too.
      destination: { host: target.host, port: target.port },
      command: 'connect',
      timeout: timeoutMs,
    });
    return socket;
  } catch (error) {
    throw socksFailure(proxy, (error as Error).message);
  }
}

/** The socks package reports everything as a message; these are its words (socks 2.8, `ERRORS` in common/constants). */
function socksFailure(proxy: ProxyEndpoint, message: string): ProxyFailure {
  if (/authentication/i.test(message)) return new ProxyFailure('proxy_auth_failed', `the proxy refused the credentials (${message})`);
  if (/timed out/i.test(message) || UNREACHABLE_CODES.some((code) => message.includes(code))) return unreachable(proxy, message);
  return new ProxyFailure('proxy_refused', `the proxy refused the tunnel (${message})`);
}

/** Told of every tunnel the proxy refused to open, whoever asked for it (the WebSocket, an upload, a download). */
export type ProxyFailureListener = (failure: ProxyFailure) => void;

type ConnectionCallback = (error: Error | null, socket: Duplex) => void;

export interface ProxyAgentOptions {
  onFailure?: ProxyFailureListener;
  /**
   * Turns the target's host name into the address the proxy is asked to connect to (and throws when it must not be
   * reached): the SSRF check of webhooks judges the final target this way, never the proxy. Without it the proxy gets
   * the name and resolves it itself.
   */
  resolve?: (host: string) => Promise<string>;
}

async function tunnelled(
  proxy: ProxyEndpoint,
  options: http.ClientRequestArgs,
  secure: boolean,
  settings: ProxyAgentOptions,
): Promise<Duplex> {
  const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
  const port = Number(options.port ?? (secure ? 443 : 80));
  let socket: net.Socket;
  try {
    const address = settings.resolve ? await settings.resolve(host) : host;
    socket = await openTunnel(proxy, { host: address, port });
  } catch (error) {
    if (error instanceof ProxyFailure) settings.onFailure?.(error);
    throw error;
  }
  if (!secure) return socket;
  const tlsOptions = options as tls.ConnectionOptions;
  const servername = tlsOptions.servername || (net.isIP(host) ? undefined : host);
  return tls.connect({ ...tlsOptions, socket, ...(servername ? { servername } : {}) });
}

function deliver(connection: Promise<Duplex>, callback: ConnectionCallback | undefined): undefined {
  connection.then(
    (socket) => callback?.(null, socket),
    (error: Error) => callback?.(error, new net.Socket()),
  );
  return undefined;
}

/** An http.Agent whose connections are tunnels through the proxy (plain HTTP and `ws:` URLs). */
export class ProxyHttpAgent extends http.Agent {
  constructor(
    private readonly proxy: ProxyEndpoint,
    private readonly settings: ProxyAgentOptions = {},
  ) {
    super({ keepAlive: true });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback): Duplex | undefined {
    return deliver(tunnelled(this.proxy, options, false, this.settings), callback);
  }
}

/** An https.Agent whose connections are TLS over tunnels through the proxy (`https:` and `wss:` URLs). */
export class ProxyHttpsAgent extends https.Agent {
  constructor(
    private readonly proxy: ProxyEndpoint,
    private readonly settings: ProxyAgentOptions = {},
  ) {
    super({ keepAlive: true });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback): Duplex | undefined {
    return deliver(tunnelled(this.proxy, options, true, this.settings), callback);
  }
}

/**
 * An undici dispatcher (what `fetch` takes) whose connections are tunnels through the proxy: TLS for `https:` origins is
 * negotiated inside the tunnel, end to end with the origin, so the proxy sees only the host name and encrypted bytes.
 */
export function proxyDispatcher(proxy: ProxyEndpoint, onFailure?: ProxyFailureListener): UndiciAgent {
  const connect: buildConnector.connector = (options, callback) => {
    const secure = options.protocol === 'https:';
    const port = Number(options.port) || (secure ? 443 : 80);
    openTunnel(proxy, { host: options.hostname, port }).then(
      (socket) => {
        if (!secure) return callback(null, socket);
        const servername = options.servername || (net.isIP(options.hostname) ? undefined : options.hostname);
        const secured = tls.connect({ socket, ALPNProtocols: ['http/1.1'], ...(servername ? { servername } : {}) });
        secured.once('secureConnect', () => callback(null, secured));
        secured.once('error', (error: Error) => callback(error, null));
      },
      (error: Error) => {
        if (error instanceof ProxyFailure) onFailure?.(error);
        callback(error, null);
      },
    );
  };
  return new UndiciAgent({ connect });
}
