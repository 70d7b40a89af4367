export const INSTANCE_STATUSES = ['unpaired', 'pairing', 'connecting', 'connected', 'disconnected'] as const;

export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** The stable shard of an instance: every worker and API replica must compute the same one. */
export function shardOf(instanceId: string, shardCount: number): number {
  let hash = 2166136261;
  for (let i = 0; i < instanceId.length; i += 1) {
    hash ^= instanceId.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % shardCount;
}

/** Who is calling: resolved by the guards from the headers, frozen, and passed first to every service method. */
export interface CustomerScope {
  readonly customerId: string;
}

export interface InstanceScope extends CustomerScope {
  readonly instanceId: string;
  /** How the caller authenticated: the customer's key, a dashboard session (acting as the customer), or the instance's own key. */
  readonly via: 'customer_key' | 'dashboard_session' | 'instance_key';
}
