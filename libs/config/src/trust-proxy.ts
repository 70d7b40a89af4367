import ipaddr from 'ipaddr.js';

/** Express's `trust proxy` forms we accept: off, a hop count, or the proxies' addresses/CIDRs (or its named ranges). */
export type TrustProxySetting = false | number | string[];

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(entry);
}

/**
 * `TRUST_PROXY`: `false`/`0` (default), a number of proxy hops in front of the API, or a comma-separated list of the
 * proxies' addresses or CIDRs. "Trust everything" (`true`) is refused: the client writes the leftmost
 * `X-Forwarded-For` entry, so it would choose its own address for the failed-authentication block.
 */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxySetting; problem?: string } {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '' || ['false', '0', 'no', 'off'].includes(value)) return { value: false };
  if (['true', 'yes', 'on'].includes(value)) {
    return {
      value: false,
      problem:
        'TRUST_PROXY=true would let clients choose their own address through X-Forwarded-For; set the number of proxies in front of the API (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8)',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 32) return { value: hops };
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
  if (entries.length === 0 || invalid.length > 0) {
    return {
      value: false,
      problem: `TRUST_PROXY must be false, a number of proxy hops (1-32), or a comma-separated list of proxy addresses/CIDRs; "${invalid.join(', ') || value}" is none of these`,
    };
  }
  return { value: entries };
}
