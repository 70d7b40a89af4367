import type { AuthenticationCreds } from '@whiskeysockets/baileys';
import type { NetworkKeyWrite, NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import type { CloseReason, SessionHooks } from '../../driver';
import type { AuthStore } from '../auth-state';
import type { BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort } from '../baileys-context';
import { bufferJson } from '../buffer-json';
import { BaileysSession } from '../session/baileys-session';
import type { BaileysLogger } from '../session/baileys-settings';
import { WebVersion } from '../session/web-version';
import { fakeLibrary } from './library';
import { freshCreds, pairedCredsUpdate } from './socket';

export const INSTANCE_ID = 'ins_1';
export const DEVICE_JID = '447700900123:4@s.whatsapp.net';
export const DEVICE_LID = '201234567890123:4@lid';
export const WS_URL = 'ws://127.0.0.1:9/ws/chat';

/** NetworkAuthRepository's behaviour, in memory: what the session saved, and whether it was cleared. */
export class MemoryAuthStore implements AuthStore {
  creds: string | null = null;
  readonly rows = new Map<string, string>();
  readonly cleared: string[] = [];
  /** How long a credentials write takes (PostgreSQL is not instant). */
  saveDelayMs = 0;

  credentials(): Promise<string | null> {
    return Promise.resolve(this.creds);
  }

  async saveCredentials(_instanceId: string, json: string): Promise<void> {
    if (this.saveDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.saveDelayMs));
    this.creds = json;
  }

  keys(_instanceId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const id of ids) {
      const value = this.rows.get(`${type}/${id}`);
      if (value !== undefined) found.set(id, value);
    }
    return Promise.resolve(found);
  }

  writeKeys(_instanceId: string, writes: NetworkKeyWrite[]): Promise<void> {
    for (const write of writes) {
      if (write.value === null) this.rows.delete(`${write.type}/${write.id}`);
      else this.rows.set(`${write.type}/${write.id}`, write.value);
    }
    return Promise.resolve();
  }

  clear(instanceId: string): Promise<void> {
    this.cleared.push(instanceId);
    this.creds = null;
    this.rows.clear();
    return Promise.resolve();
  }

  /** The saved credentials as Baileys would load them. */
  saved(): AuthenticationCreds | null {
    return this.creds === null ? null : bufferJson.parse<AuthenticationCreds>(this.creds);
  }
}

export interface LogLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  bindings: Record<string, unknown>;
  fields: unknown;
  message?: string;
}

/** A Baileys logger that keeps what was logged, with the bindings of the child it was logged through. */
export function recordingLogger(lines: LogLine[] = [], bindings: Record<string, unknown> = {}): BaileysLogger {
  const at =
    (level: LogLine['level']) =>
    (fields: unknown, message?: string): void => {
      lines.push({ level, bindings, fields, message });
    };
  return {
    level: 'trace',
    child: (more: Record<string, unknown>) => recordingLogger(lines, { ...bindings, ...more }),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

export type HookCall =
  ['qr', string] | ['opened', { deviceId: string; isNewLogin: boolean }] | ['closed', CloseReason, string | undefined, string | undefined];

export interface HarnessOptions {
  /** Stored credentials of a linked device (else none: the session pairs). */
  paired?: boolean;
  historySync?: boolean;
  holdsLease?: boolean;
  firstQrWaitMs?: number;
  openWaitMs?: number;
  /** The database another worker's session already uses (a takeover reads what the previous owner saved). */
  auth?: MemoryAuthStore;
  now?: () => number;
}

/** A session over the fake library, with in-memory stores and ports and a record of every hook call. */
export function sessionHarness(options: HarnessOptions = {}) {
  const fake = fakeLibrary({ markConversions: true });
  const auth = options.auth ?? new MemoryAuthStore();
  if (options.paired && !options.auth) auth.creds = bufferJson.stringify({ ...freshCreds(), ...pairedCredsUpdate(DEVICE_JID, DEVICE_LID) });
  const messages = {
    find: jest.fn<Promise<NetworkMessageRecord | null>, [string, string, string?]>(() => Promise.resolve(null)),
    recentPerChat: jest.fn<Promise<NetworkMessageRecord[]>, [string, number]>(() => Promise.resolve([])),
    forgetAll: jest.fn<Promise<void>, [string]>(() => Promise.resolve()),
  };
  const inbound = {
    process: jest.fn<ReturnType<BaileysInboundPort['process']>, Parameters<BaileysInboundPort['process']>>(() => Promise.resolve()),
  };
  const sender = { send: jest.fn<ReturnType<BaileysSenderPort['send']>, Parameters<BaileysSenderPort['send']>>(() => Promise.resolve({})) };
  const operations = { perform: jest.fn(() => Promise.resolve({ ok: true })) };
  const calls: HookCall[] = [];
  let holdsLease = options.holdsLease ?? true;
  const hooks: SessionHooks = {
    qr: (code) => calls.push(['qr', code]),
    opened: (info) => calls.push(['opened', info]),
    closed: (reason, detail, deviceId) => calls.push(['closed', reason, detail, deviceId]),
    event: jest.fn(),
    learned: jest.fn(),
    historySyncEnabled: jest.fn(() => Promise.resolve(options.historySync ?? false)),
    holdsLease: () => holdsLease,
  };
  const logLines: LogLine[] = [];
  const logger = recordingLogger(logLines);
  const version = new WebVersion();
  const session = new BaileysSession({ instanceId: INSTANCE_ID, customerId: 'cus_1' }, hooks, {
    library: () => Promise.resolve(fake.lib),
    auth,
    messages: messages as unknown as NetworkMessageRepository,
    inbound,
    sender,
    operations: operations as unknown as BaileysOperationsPort,
    settings: { webSocketUrl: WS_URL, firstQrWaitMs: options.firstQrWaitMs ?? 1_000, openWaitMs: options.openWaitMs ?? 1_000 },
    logger,
    version,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    ...fake,
    session,
    auth,
    messages,
    inbound,
    sender,
    operations,
    hooks,
    calls,
    logLines,
    version,
    loseLease: () => (holdsLease = false),
  };
}

/** Lets every promise and tick queued so far run (the session reacts to socket events asynchronously). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
