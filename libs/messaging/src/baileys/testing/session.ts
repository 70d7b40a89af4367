import type { NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import type { CloseReason, SessionHooks } from '../../driver';
import type { BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort } from '../baileys-context';
import { bufferJson } from '../buffer-json';
import { BaileysSession } from '../session/baileys-session';
import type { BaileysLogger } from '../session/baileys-settings';
import { WebVersion } from '../session/web-version';
import { fakeLibrary } from './library';
import { MemoryAuthStore } from './memory-auth-store';
import { freshCreds, pairedCredsUpdate } from './socket';

export { MemoryAuthStore };

export const INSTANCE_ID = 'ins_1';
export const DEVICE_JID = '447700900123:4@s.whatsapp.net';
export const DEVICE_LID = '201234567890123:4@lid';
export const WS_URL = 'ws://127.0.0.1:9/ws/chat';

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
    settings: {
      webSocketUrl: WS_URL,
      firstQrWaitMs: options.firstQrWaitMs ?? 1_000,
      openWaitMs: options.openWaitMs ?? 1_000,
      undecryptableAfterMs: 60_000,
    },
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
