import { isIP } from 'node:net';

/** The proxy kinds an instance can route through: HTTP with CONNECT tunnels, and SOCKS5 (names resolved by the proxy). */
export const PROXY_SCHEMES = ['http', 'socks5'] as const;
export type ProxyScheme = (typeof PROXY_SCHEMES)[number];

/** Longest proxy URL accepted (credentials included). */
export const MAX_PROXY_URL_LENGTH = 2048;

/** How a stored proxy URL's password is shown: never in clear. The same mark as masked signing secrets. */
const MASK_MARK = '…';

export interface ProxyEndpoint {
  scheme: ProxyScheme;
  /** Host name or IP address (IPv6 without brackets). */
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** Why a proxy URL was refused, worded to follow the field name (`proxyUrl must ...`). */
export class ProxyUrlError extends Error {}

/**
 * `http://[user:password@]host:port` or `socks5://[user:password@]host:port`, nothing after the port. The port is
 * required: proxies listen on many different ones, and a guessed default would only turn a typo into a dead proxy.
 */
export function parseProxyUrl(raw: string): ProxyEndpoint {
  if (raw.length > MAX_PROXY_URL_LENGTH) throw new ProxyUrlError(`must be at most ${MAX_PROXY_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProxyUrlError('must be a URL such as http://user:password@proxy.example:3128 or socks5://proxy.example:1080');
  }
  const scheme = url.protocol.slice(0, -1);
  if (!(PROXY_SCHEMES as readonly string[]).includes(scheme))
    throw new ProxyUrlError(`must use one of the schemes ${PROXY_SCHEMES.join(', ')}`);
  if (!url.hostname) throw new ProxyUrlError('must name the proxy host');
  if (!url.port) throw new ProxyUrlError('must name the proxy port, e.g. :3128');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    throw new ProxyUrlError('must end after host:port (no path, query or fragment)');
  }
  if (raw.includes(MASK_MARK)) throw new ProxyUrlError('must not contain the mask character …');
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  if (password !== undefined && username === undefined) throw new ProxyUrlError('must name a user when it has a password');
  return {
    scheme: scheme as ProxyScheme,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port),
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
  };
}

/** `host:port` as written in a URL or a CONNECT request (IPv6 in brackets). */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * How a stored proxy URL is shown: scheme, user, host and port, with the password replaced by `…`
 * (`http://alice:…@proxy.example:3128`); empty when none is set. Enough to tell proxies apart, never enough to use one.
 */
export function maskProxyUrl(stored: string | null | undefined): string {
  if (!stored) return '';
  const endpoint = parseProxyUrl(stored);
  const user =
    endpoint.username === undefined
      ? ''
      : `${encodeURIComponent(endpoint.username)}${endpoint.password === undefined ? '' : `:${MASK_MARK}`}@`;
  return `${endpoint.scheme}://${user}${hostPort(endpoint.host, endpoint.port)}`;
}

/**
 * What a write of a proxy URL means: `keep` for the masked form of the stored URL sent back unchanged (settings read,
 * edited elsewhere and sent back whole), `invalid` for any other masked-looking value, `clear` for an empty string,
 * else the new URL (checked by `parseProxyUrl` at the edge).
 */
export function proxyUrlWrite(
  input: string,
  stored: string | null,
): { kind: 'keep' } | { kind: 'invalid' } | { kind: 'clear' } | { kind: 'set'; value: string } {
  if (input === '') return { kind: 'clear' };
  if (!input.includes(MASK_MARK)) return { kind: 'set', value: input };
  return stored !== null && input === maskProxyUrl(stored) ? { kind: 'keep' } : { kind: 'invalid' };
}
