import type { EventSinkSettings } from '@app/contracts';
import type { InstanceStatus } from '@app/contracts';

/** Event-delivery settings as stored; secrets are decrypted only inside the repositories. */
export interface InstanceSettings {
  useCustomDefaults: boolean;
  pullMode: boolean;
  webhookUrl: string | null;
  eventSigningSecret: string | null;
  historySync: boolean;
  eventFilters: string[];
  /** Outbound proxy URL with its credentials (decrypted); null for none. */
  proxyUrl: string | null;
  /** The broker the instance's events are published to as well (RabbitMQ, NATS JetStream); null for none. */
  eventSink: EventSinkSettings | null;
}

export interface InstanceRecord {
  id: string;
  customerId: string;
  name: string;
  status: InstanceStatus;
  deviceId: string | null;
  shard: number;
  sandbox: boolean;
  hasApiKey: boolean;
  createdAt: Date;
  /** Why the instance is in its status, when something other than the network put it there (e.g. `proxy_unreachable`). */
  statusReason: string | null;
  settings: InstanceSettings;
}

export interface CustomerDefaults {
  defaultWebhookUrl: string | null;
  defaultSigningSecret: string | null;
  defaultEventFilters: string[];
  defaultHistorySync: boolean;
  defaultPullMode: boolean;
  /** Outbound proxy URL with its credentials (decrypted); null for none. */
  defaultProxyUrl: string | null;
  defaultEventSink: EventSinkSettings | null;
}

/** The operator's per-customer overrides of the server-wide limits; null means "the server default". */
export interface CustomerLimitOverrides {
  maxInstances: number | null;
  maxStreamsPerInstance: number | null;
}

export interface CustomerRecord {
  id: string;
  name: string;
  createdAt: Date;
  disabledAt: Date | null;
}

/** `customerDisabled`: the operator disabled the key's customer; the key is known but refused. */
export type KeyPrincipal =
  | { kind: 'customer'; customerId: string; customerDisabled: boolean }
  | { kind: 'instance'; customerId: string; instanceId: string; customerDisabled: boolean };

export interface Page<T> {
  items: T[];
  totalCount: number;
}
