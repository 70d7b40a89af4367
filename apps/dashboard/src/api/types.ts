// The shapes of the API answers the dashboard reads (see the OpenAPI document at /docs).

export type InstanceStatus = 'unpaired' | 'pairing' | 'connecting' | 'connected' | 'disconnected';

export interface SessionUser {
  id: string;
  email: string;
  customerId: string;
  customerName: string;
}

export interface SignedIn {
  user: SessionUser;
  csrfToken: string;
}

export interface InviteInfo {
  email: string;
  customerName: string;
  expiresAt: string;
  purpose: 'invite' | 'password_reset';
}

export interface TeamMember {
  id: string;
  email: string;
  status: 'active' | 'invited';
  createdAt: string;
  lastSignInAt?: string | null;
}

export interface CreatedInvite {
  user: TeamMember;
  inviteUrl: string;
  inviteExpiresAt: string;
}

export interface InstanceSettings {
  useCustomDefaults: boolean;
  pullMode: boolean;
  webhookUrl: string;
  eventSigningSecret: string;
  historySync: boolean;
  eventFilters: string[];
}

export interface Instance {
  id: string;
  name: string;
  hasApiKey: boolean;
  settings: InstanceSettings;
  status: InstanceStatus;
  deviceId: string;
  created: string;
  sandbox: boolean;
}

export interface CreatedInstance extends Instance {
  apiKey: string;
}

export interface InstancePage {
  items: Instance[];
  totalCount: number;
  pageNumber: number;
  pageSize: number;
}

export interface CustomerDefaults {
  defaultWebhookUrl: string;
  defaultSigningSecret: string;
  defaultEventFilters: string[];
  defaultHistorySync: boolean;
  defaultPullMode: boolean;
}

export interface LiveStatusMessage {
  instanceId: string;
  status: InstanceStatus;
  deviceId?: string | null;
}

export interface SessionStatus {
  isConnected: boolean;
  isLoggedIn: boolean;
  deviceId: string;
}

export interface EventEnvelope {
  eventId: string;
  instanceId: string;
  eventType: string;
  receivedAt: string;
  eventData: Record<string, unknown>;
}

export interface LoggedEvent {
  seq: number;
  event: EventEnvelope;
}

export interface EventPage {
  items: LoggedEvent[];
  nextAfter: number;
}

export interface DeliveryAttempt {
  number: number;
  url: string;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  outcome: 'delivered' | 'failed' | 'gone' | 'skipped';
  error: string | null;
}

export interface DeliveryReport {
  eventId: string;
  state: 'pending' | 'delivered' | 'failed' | 'stopped' | 'none';
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
}

export interface WebhookTestResult {
  url: string;
  delivered: boolean;
  statusCode?: number;
  durationMs: number;
  responseSnippet?: string;
  error?: string;
}

export interface OutboxEntry {
  id: string;
  to: string;
  type: string;
  content: Record<string, unknown>;
  receivedAt: string;
}

export interface InboxEntry {
  id: string;
  from: string;
  chatId: string;
  type: string;
  content: Record<string, unknown>;
  receivedAt: string;
}

export interface AdminCustomer {
  id: string;
  name: string;
  disabled?: boolean;
  createdAt?: string;
  created?: string;
  apiKey?: string;
  ownerInvite?: { url: string; expiresAt: string };
}

export interface Overview {
  workers: Array<{ id: string; shards: number[]; aliveUntil: string }>;
  shards: { total: number; owned: number; unowned: number };
  instances: { total: number; byStatus: Record<string, number> };
  customers: { total: number; disabled: number };
}
