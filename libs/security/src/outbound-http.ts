import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { ProxyEndpoint } from './outbound-proxy';
import { ProxyHttpAgent, ProxyHttpsAgent } from './proxy-tunnel';

export interface OutboundPolicy {
  /** Allow private, loopback and link-local destinations (never in production). */
  allowPrivateNetworks: boolean;
  /** Host names or IP addresses that may be reached even though they are private. */
  allowedHosts: string[];
}

export class OutboundHttpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundHttpError';
  }
}

const MAX_REDIRECTS = 3;

export interface OutboundResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  /** The first bytes of the answer, up to the caller's cap. */
  body: Buffer;
}

function isIp(value: string): boolean {
  return ipaddr.isValid(value.replace(/^\[|\]$/g, ''));
}

/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): ipaddr.js calls it unicast, but it carries an IPv4 address. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Only ordinary public unicast addresses; private, loopback, link-local (incl. 169.254.169.254) and the rest are
 * refused. IPv6 forms that embed an IPv4 address are refused as well: `::/96` (IPv4-compatible), and — by ipaddr.js's
 * ranges, which are not `unicast` — `::ffff:0:0/96` (mapped, judged as its IPv4 address), `64:ff9b::/96` (NAT64),
 * `2002::/16` (6to4) and `2001::/32` (Teredo).
 */
export function isPublicAddress(address: string): boolean {
  const raw = canonical(address.replace(/^\[|\]$/g, ''));
  if (!ipaddr.isValid(raw)) return false;
  const parsed = ipaddr.parse(raw);
  if (parsed instanceof ipaddr.IPv6 && parsed.match(IPV4_COMPATIBLE)) return false;
  return ipaddr.process(raw).range() === 'unicast';
}

/**
 * IPv6 in WHATWG URL's canonical form, as sockets see it: ipaddr.js reads `::a.b.c.d` as IPv4-*mapped*, while the
 * network stack (and the URL parser) read it as IPv4-compatible `::xxxx:xxxx`.
 */
function canonical(address: string): string {
  if (!net.isIPv6(address)) return address;
  return new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, '');
}

/** Said of a host name whether it does not resolve or resolves to a non-public address: either way it is not usable. */
function notPublic(host: string): OutboundHttpError {
  return new OutboundHttpError(isIp(host) ? `${host} is not a public address` : `${host} does not resolve to a public address`);
}

type Permits = (address: string) => boolean;

/** Wraps the connection's DNS lookup so every address it yields is judged before the socket connects to it. */
function guardedLookup(hostname: string, permits: Permits, lookupFn: net.LookupFunction = dns.lookup): net.LookupFunction {
  return ((host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    lookupFn(host, options, (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
      if (error) return callback(notPublic(hostname));
      const addresses = typeof address === 'string' ? [address] : address.map((entry) => entry.address);
      if (addresses.length === 0 || !addresses.every(permits)) return callback(notPublic(hostname));
      return callback(null, address, family);
    });
  }) as net.LookupFunction;
}

function refusedSocket(error: Error, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
  const socket = new net.Socket();
  if (callback) callback(error, socket);
  else process.nextTick(() => socket.destroy(error));
  return socket;
}

/**
 * Our own check at connect time, ahead of request-filtering-agent's (which classes `::/96` as public and names the
 * address it refused): an IP host is judged directly, a name at each DNS answer. Errors never say what a name resolved to.
 */
function guardConnection(
  options: TcpNetConnectOpts,
  callback: ((error: Error | null, socket: Duplex) => void) | undefined,
  permits: Permits,
  connect: (options: TcpNetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void) => Duplex,
): Duplex {
  const host = (options.host ?? '').replace(/^\[|\]$/g, '');
  if (isIp(host)) return permits(host) ? connect(options, callback) : refusedSocket(notPublic(host), callback);
  return connect({ ...options, lookup: guardedLookup(host, permits, options.lookup) }, callback);
}

/** The first address of the host (an IP host as it is), once every address it resolves to is permitted. */
async function checkedAddress(host: string, permits: Permits): Promise<string> {
  if (isIp(host)) {
    if (!permits(host)) throw notPublic(host);
    return host;
  }
  const addresses = (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0 || !addresses.every(permits)) throw notPublic(host);
  return addresses[0];
}

class GuardedHttpAgent extends RequestFilteringHttpAgent {
  constructor(
    private readonly permits: Permits,
    options: ConstructorParameters<typeof RequestFilteringHttpAgent>[0],
  ) {
    super(options);
  }

  override createConnection(options: TcpNetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
    return guardConnection(options, callback, this.permits, (opts, cb) => super.createConnection(opts, cb));
  }
}

class GuardedHttpsAgent extends RequestFilteringHttpsAgent {
  constructor(
    private readonly permits: Permits,
    options: ConstructorParameters<typeof RequestFilteringHttpsAgent>[0],
  ) {
    super(options);
  }

  override createConnection(options: TcpNetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
    return guardConnection(options, callback, this.permits, (opts, cb) => super.createConnection(opts, cb));
  }
}

/**
 * Outbound HTTP for customer-supplied URLs (media, webhooks): http(s) only, and the address actually
 * connected to must be public, checked after DNS resolution by the socket agent so rebinding cannot slip through.
 */
export class OutboundHttp {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly plainHttp: http.Agent = new http.Agent({ keepAlive: true });
  private readonly plainHttps: https.Agent = new https.Agent({ keepAlive: true });

  /**
   * With `egressProxy` every request goes through that proxy (`WEBHOOK_EGRESS_PROXY`). The address check still judges
   * the final target: its name is resolved here and checked, and the proxy is asked to CONNECT to that checked address
   * (TLS still names the host), so neither DNS rebinding nor the proxy's own resolver can lead to a private address.
   */
  constructor(
    private readonly policy: OutboundPolicy,
    egressProxy?: ProxyEndpoint,
  ) {
    const allowIPAddressList = policy.allowedHosts.filter(isIp);
    const options = { allowPrivateIPAddress: policy.allowPrivateNetworks, allowIPAddressList, keepAlive: true };
    const permits: Permits = (address) => policy.allowPrivateNetworks || allowIPAddressList.includes(address) || isPublicAddress(address);
    if (egressProxy) {
      const resolve = (host: string) => checkedAddress(host, permits);
      this.httpAgent = new ProxyHttpAgent(egressProxy, { resolve });
      this.httpsAgent = new ProxyHttpsAgent(egressProxy, { resolve });
      this.plainHttp = new ProxyHttpAgent(egressProxy);
      this.plainHttps = new ProxyHttpsAgent(egressProxy);
    } else {
      this.httpAgent = new GuardedHttpAgent(permits, options);
      this.httpsAgent = new GuardedHttpsAgent(permits, options);
    }
  }

  /**
   * Refuses (before anything is stored) a URL whose host is, or resolves to, a non-public address. A name that does
   * not resolve now is refused too unless `allowUnresolved` (webhook settings: the connection is checked again anyway).
   */
  async assertReachable(rawUrl: string, options: { allowUnresolved?: boolean } = {}): Promise<void> {
    const url = new URL(rawUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundHttpError('only http and https URLs are allowed');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (this.policy.allowPrivateNetworks || this.policy.allowedHosts.includes(host.toLowerCase())) return;
    const addresses = isIp(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
    if (addresses.length === 0 && options.allowUnresolved) return;
    // One answer for "does not resolve" and "resolves to a private address", so the check cannot map internal names.
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw notPublic(host);
  }

  /** Downloads at most `maxBytes` within `timeoutMs`, following at most three redirects (each checked again). */
  async fetchBytes(rawUrl: string, maxBytes: number, timeoutMs: number): Promise<{ data: Buffer; contentType?: string }> {
    let url = new URL(rawUrl);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const response = await this.get(url, timeoutMs);
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.resume();
        url = new URL(location, url);
        continue;
      }
      if (!response.statusCode || response.statusCode < 200 || response.statusCode >= 300) {
        response.resume();
        throw new OutboundHttpError(`${url.host} answered ${response.statusCode ?? 'nothing'}`);
      }
      return { data: await this.readCapped(response, maxBytes), contentType: response.headers['content-type'] };
    }
    throw new OutboundHttpError('too many redirects');
  }

  /**
   * POSTs a body and reads at most `maxResponseBytes` of the answer (the rest is discarded, the connection closed).
   * Redirects are not followed: a 3xx is returned like any other status.
   */
  async post(
    rawUrl: string,
    body: string,
    headers: Record<string, string>,
    limits: { timeoutMs: number; maxResponseBytes: number },
  ): Promise<OutboundResponse> {
    const url = new URL(rawUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundHttpError('only http and https URLs are allowed');
    const secure = url.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: this.agentFor(url),
          headers: { ...headers, 'Content-Length': String(payload.length) },
          signal: AbortSignal.timeout(limits.timeoutMs),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size >= limits.maxResponseBytes) return;
            const room = limits.maxResponseBytes - size;
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            size += Math.min(chunk.length, room);
            if (size >= limits.maxResponseBytes) response.destroy();
          });
          const done = () => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
          response.on('end', done);
          response.on('close', done);
          response.on('error', () => done());
        },
      );
      request.on('error', (error) => {
        const message =
          error.name === 'AbortError' || error.name === 'TimeoutError' ? `no answer within ${limits.timeoutMs} ms` : error.message;
        reject(error instanceof OutboundHttpError ? error : new OutboundHttpError(message));
      });
      request.end(payload);
    });
  }

  private agentFor(url: URL): http.Agent {
    const trusted = this.policy.allowedHosts.includes(url.hostname.toLowerCase());
    const secure = url.protocol === 'https:';
    return secure ? (trusted ? this.plainHttps : this.httpsAgent) : trusted ? this.plainHttp : this.httpAgent;
  }

  private get(url: URL, timeoutMs: number): Promise<http.IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new OutboundHttpError('only http and https URLs are allowed'));
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).get(url, { agent: this.agentFor(url), timeout: timeoutMs }, resolve);
      request.on('timeout', () => request.destroy(new OutboundHttpError(`no answer from ${url.host} within ${timeoutMs} ms`)));
      request.on('error', (error) => reject(error instanceof OutboundHttpError ? error : new OutboundHttpError(error.message)));
    });
  }

  private readCapped(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      response.destroy();
      return Promise.reject(new OutboundHttpError(`content is ${declared} bytes, more than the ${maxBytes} allowed`));
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          reject(new OutboundHttpError(`content is more than the ${maxBytes} bytes allowed`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', (error) => reject(new OutboundHttpError(error.message)));
    });
  }
}

/** One policy for every customer-supplied URL (media and webhooks), from WEBHOOK_ALLOW_PRIVATE_NETWORKS / WEBHOOK_ALLOWED_HOSTS. */
export function outboundPolicy(config: { webhookAllowPrivateNetworks: boolean; webhookAllowedHosts: string[] }): OutboundPolicy {
  return { allowPrivateNetworks: config.webhookAllowPrivateNetworks, allowedHosts: config.webhookAllowedHosts };
}
