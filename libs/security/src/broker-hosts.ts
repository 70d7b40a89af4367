import { lookup } from 'node:dns/promises';
import { isPublicAddress, type OutboundPolicy } from './outbound-http';

/**
 * Broker URLs are customer input like webhook URLs and follow the same policy (WEBHOOK_ALLOW_PRIVATE_NETWORKS,
 * WEBHOOK_ALLOWED_HOSTS): a host that is, or resolves to, a private, loopback or link-local address is refused unless
 * the operator allowed it, so a sink cannot be pointed at the gateway's own network. Null when allowed.
 */
export async function brokerHostProblem(
  policy: OutboundPolicy,
  rawUrl: string,
  options: { allowUnresolved?: boolean } = {},
): Promise<string | null> {
  const host = new URL(rawUrl).hostname.replace(/^\[|\]$/g, '');
  if (policy.allowPrivateNetworks || policy.allowedHosts.includes(host.toLowerCase())) return null;
  const addresses =
    isPublicAddress(host) || /^[\d.:a-f]+$/i.test(host)
      ? [host]
      : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0 && options.allowUnresolved) return null;
  if (addresses.length > 0 && addresses.every((address) => isPublicAddress(address) || policy.allowedHosts.includes(address))) return null;
  return `host ${host} is not a public address (the operator can allow it with WEBHOOK_ALLOWED_HOSTS)`;
}
