import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..', '..');

export interface FakeDevice {
  jid: string;
  lid: string;
  linked: boolean;
  connected: boolean;
  preKeys: number;
  /** How many times the device logged in (each reconnect is a new login). */
  logins: number;
}

/** What one device of a contact (or of the account's phone) received from our device, decrypted. */
export interface ReceivedMessage {
  /** The device of the contact that received this copy: a companion (from 1); absent for a one-to-one copy to the phone. */
  device?: number;
  id: string;
  to: string;
  recipient: string;
  from: string;
  type: string;
  attrs: Record<string, string>;
  encType: string;
  encAttrs: Record<string, string>;
  hasDeviceIdentity: boolean;
  extras: { tag: string; attrs: Record<string, string>; content?: unknown }[];
  message?: Record<string, unknown>;
  error?: string;
  /** Group sends: the pairwise copy that carried our sender key to this device, or null when none came with it. */
  distribution?: { recipient: string; encType: string; groupId?: string; error?: string } | null;
  /** A pairwise copy (our sender key) that reached someone no longer in the group. */
  notMember?: boolean;
  /** A resend answering this device's retry receipt: the receipt's count (null: the stanza's plain extra copy). */
  retry?: number | null;
}

/** A member's change to a group (`by`, the participants: phone numbers). */
export type GroupChange =
  | { by: string; action: 'add' | 'remove' | 'promote' | 'demote'; participants: string[] }
  | { by: string; action: 'subject'; subject: string }
  | { by: string; action: 'announce'; announce: boolean };

/** One connection that logged in as a device, on the fake network's clock (one counter for logins, stanzas and ends). */
export interface DeviceLink {
  connection: number;
  login: number;
  /** When the server stopped taking it as the device; absent while it still is. */
  ended?: number;
  /** 'replaced' (a newer login of the device), 'closed' (the socket), 'stream error <code>' or 'failure <reason>'. */
  endedBy?: string;
  /** When each stanza it sent arrived. */
  stanzas: number[];
}

/** A retry receipt our device sent (`retries.mjs`), and what the contact's phone did with it. */
export interface RetryReceiptFromUs {
  device: string;
  to: string;
  id: string;
  attrs: Record<string, string>;
  retry: Record<string, string>;
  registration: boolean;
  /** The tags of the key bundle, when the receipt carried one. */
  keys?: string[];
  /** 'resent (msg)', 'resent (pkmsg)', 'resent damaged (...)', 'ignored', or 'not ours' (no undecryptable message). */
  answered: string;
}

export interface PairingCompanion {
  refs: string[];
  noiseKey: string;
  identityKey: string;
  platform: string;
}

/** The account's phone's view of its app state (`app-state.mjs`): per chat, per starred message, per collection. */
export interface PhoneAppState {
  keyId: string;
  chats: Record<string, { archived?: boolean; pinned?: boolean; muted?: boolean; muteEndTimestamp?: number }>;
  starred: { chatJid: string; id: string; fromMe: boolean }[];
  versions: Record<string, number>;
  /** Patches from our devices the phone refused, with Baileys' decoder's reasons. */
  rejected: { collection: string; version: number; from: string; reasons: string[] }[];
}

/** A change made on the account's phone, as an app-state patch. */
export type PhoneChange =
  | { action: 'archive'; archived: boolean }
  | { action: 'pin'; pinned: boolean }
  | { action: 'mute'; muteEndTimestamp: number | null }
  | { action: 'star'; messageId: string; fromMe: boolean; starred: boolean };

/**
 * The fake WhatsApp Web network (`main.mjs`) as a child process, and a typed client of its control API. The worker
 * reaches it with `workerEnv()`: `BAILEYS_WS_URL` and the seam `BAILEYS_TEST_NETWORK_ROOT_KEY`.
 */
export class FakeNetworkProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly webSocketUrl: string,
    readonly controlUrl: string,
    readonly rootPublicKey: string,
    /** The media server's self-signed certificate (PEM file): the worker trusts it through NODE_EXTRA_CA_CERTS. */
    readonly mediaCertificate: string,
    /** The media server's origin: the worker fetches what names the default media host (history blobs) from here. */
    readonly mediaOrigin: string,
    private readonly errors: () => string,
  ) {}

  /** `env`: more of the fake's environment, e.g. `FAKE_NETWORK_DEVICE_PEERS` (see peer-guard.mjs). */
  static async start(env: Record<string, string> = {}): Promise<FakeNetworkProcess> {
    const child = spawn(process.execPath, [join(__dirname, 'main.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the fake network exited with ${code}:\n${stderr}`)));
    });
    const info = JSON.parse(firstLine) as {
      webSocketUrl: string;
      controlUrl: string;
      rootPublicKey: string;
      mediaCertificate: string;
      mediaOrigin: string;
    };
    return new FakeNetworkProcess(
      child,
      info.webSocketUrl,
      info.controlUrl,
      info.rootPublicKey,
      info.mediaCertificate,
      info.mediaOrigin,
      () => stderr,
    );
  }

  workerEnv(): Record<string, string> {
    return {
      BAILEYS_WS_URL: this.webSocketUrl,
      BAILEYS_TEST_NETWORK_ROOT_KEY: this.rootPublicKey,
      NODE_EXTRA_CA_CERTS: this.mediaCertificate,
      BAILEYS_TEST_MEDIA_ORIGIN: this.mediaOrigin,
    };
  }

  /** Peers the WebSocket and the media server refused (only with `FAKE_NETWORK_DEVICE_PEERS`). */
  refusedPeers(): Promise<string[]> {
    return this.call('GET', '/refused-peers');
  }

  output(): string {
    return this.errors();
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.controlUrl}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
    const parsed = (await response.json()) as T & { error?: string };
    if (response.status !== 200) throw new Error(`fake network ${method} ${path}: ${response.status} ${parsed.error}`);
    return parsed;
  }

  /** The account's phone scans a QR code. */
  scan(qr: string, phone: string): Promise<{ deviceJid: string; lid: string }> {
    return this.call('POST', '/phone/scan', { qr, phone });
  }

  /** The account's user types the pair code the companion showed on the phone. */
  async enterPairCode(phone: string, code: string): Promise<void> {
    await this.call('POST', '/phone/pair-code', { phone, code });
  }

  devices(): Promise<FakeDevice[]> {
    return this.call('GET', '/devices');
  }

  async device(jid: string): Promise<FakeDevice> {
    const found = (await this.devices()).find((device) => device.jid === jid);
    if (!found) throw new Error(`the fake network has no device ${jid}`);
    return found;
  }

  /** The server's stock of the device's pre-keys runs out; resolves with the ids of the batch the device uploads. */
  preKeyLow(jid: string): Promise<{ ids: number[] }> {
    return this.call('POST', '/devices/pre-key-low', { jid });
  }

  /**
   * The server's view of a device's one-time pre-keys: those it still holds for peers (in the order it hands them
   * out) and the ids the device uploaded again with another key (its credentials forgot them: each breaks a peer).
   */
  preKeys(jid: string): Promise<{ held: number[]; reused: number[] }> {
    return this.call('GET', `/devices/pre-keys?jid=${encodeURIComponent(jid)}`);
  }

  /** Every connection that logged in as the device, in login order (`DeviceLink`). */
  links(jid: string): Promise<DeviceLink[]> {
    return this.call('GET', `/devices/links?jid=${encodeURIComponent(jid)}`);
  }

  companions(): Promise<PairingCompanion[]> {
    return this.call('GET', '/pairing');
  }

  /**
   * The server ends the device's connection with a code: a stream error (515, 408, 500, ...), 401 logged out (the
   * `<failure reason=401>` of a login refused), `device_removed` (the phone unlinked it: `<stream:error code=401>` with
   * `<conflict type=device_removed/>`), 440 replaced.
   */
  disconnect(jid: string, code: number | 'close' | 'device_removed'): Promise<void> {
    return this.call('POST', '/devices/disconnect', { jid, code });
  }

  /** A WhatsApp user with its own phone and Signal identity. */
  addContact(phone: string, name: string, lid: string): Promise<{ jid: string; lid: string }> {
    return this.call('POST', '/contacts', { phone, name, lid });
  }

  /** The contact's phone sends `message` (a proto.Message as JSON) to our device. */
  sendFromContact(
    from: string,
    to: string,
    message: object,
    extra: { type?: string; mediatype?: string; fromDevice?: number } = {},
  ): Promise<{ id: string }> {
    return this.call('POST', '/contacts/send', { from, to, message, ...extra });
  }

  /** The contact's phone reports messages delivered (no type) or read / played. */
  async receipt(from: string, to: string, ids: string[], type?: 'read' | 'played'): Promise<void> {
    await this.call('POST', '/contacts/receipt', { from, to, ids, type });
  }

  inbox(phone: string): Promise<ReceivedMessage[]> {
    return this.call('GET', `/contacts/inbox?phone=${phone}`);
  }

  /** What the account's own phone received (our sends reach it as device-sent messages). */
  phoneInbox(phone: string): Promise<ReceivedMessage[]> {
    return this.call('GET', `/accounts/inbox?phone=${phone}`);
  }

  /**
   * The account's phone sends history to a companion device as a blob on the media server (`history` is a
   * proto.HistorySync as JSON: conversations, pushnames, phoneNumberToLidMappings).
   */
  sendHistory(to: string, syncType: 'RECENT' | 'PUSH_NAME' | 'FULL', history: object): Promise<{ id: string; directPath: string }> {
    return this.call('POST', '/phone/history', { to, syncType, history });
  }

  /** The path of every file devices fetched from the media server, in order. */
  mediaDownloads(): Promise<string[]> {
    return this.call('GET', '/media/downloads');
  }

  /**
   * The contact sends a message our device cannot decrypt (damaged ciphertext). When asked, it resends `resends` times,
   * the first `failingResends` of them damaged too.
   */
  sendUndecryptable(
    from: string,
    to: string,
    message: object,
    options: { resends: number; failingResends?: number },
  ): Promise<{ id: string; encType: 'msg' | 'pkmsg' }> {
    return this.call('POST', '/retries/undecryptable', { from, to, message, ...options });
  }

  /** The contact answers our retry receipt for `id` only now (its phone was offline): a resend on a new session. */
  resendLate(id: string): Promise<{ id: string; encType: 'msg' | 'pkmsg' }> {
    return this.call('POST', '/retries/resend-late', { id });
  }

  /** Every retry receipt our devices sent, in order. */
  retryReceiptsFromUs(): Promise<RetryReceiptFromUs[]> {
    return this.call('GET', '/retries/from-us');
  }

  /** Whether the contact's phone asks our device again (retry receipt) when it cannot decrypt one of its messages. */
  async asksForRetries(phone: string, asking = true): Promise<void> {
    await this.call('POST', '/retries/asking', { phone, asking });
  }

  /** The contact's phone loses its Signal session with our device (a reinstall): what it gets next fails to decrypt. */
  async forgetSession(phone: string, device: string): Promise<void> {
    await this.call('POST', '/retries/forget-session', { phone, device });
  }

  /** The contact's phone asks our device for message `id` again (count from its own tally unless given). */
  askAgain(from: string, to: string, id: string, options: { count?: number; keys?: boolean } = {}): Promise<{ count: number }> {
    return this.call('POST', '/retries/ask', { from, to, id, ...options });
  }

  /** The contact links a companion device (announced by a `devices` add notification unless `notify` is false). */
  addContactDevice(phone: string, notify = true): Promise<{ device: number; jid: string; lid: string; notified: string[] }> {
    return this.call('POST', '/contacts/devices', { phone, notify });
  }

  /** The contact unlinks a companion device (a `devices` remove notification unless `notify` is false). */
  removeContactDevice(phone: string, device: number, notify = true): Promise<{ devices: number[]; notified: string[] }> {
    return this.call('POST', '/contacts/devices/remove', { phone, device, notify });
  }

  /** The contact reinstalls WhatsApp: a new identity key, announced by an `encrypt` notification with <identity/>. */
  reinstallContact(phone: string, notify = true): Promise<{ identityKey: string; notified: string[] }> {
    return this.call('POST', '/contacts/reinstall', { phone, notify });
  }

  /** A group made on the network by a contact or account, addressed by phone number or by LID. */
  createGroup(creator: string, subject: string, participants: string[], addressing: 'pn' | 'lid'): Promise<{ id: string }> {
    return this.call('POST', '/groups', { creator, subject, participants, addressing });
  }

  /** A member changes the group; our devices hear of it through a `w:gp2` notification. */
  changeGroup(group: string, change: GroupChange): Promise<{ id: string; participants: { jid: string; admin?: string }[] }> {
    return this.call('POST', '/groups/change', { group, ...change });
  }

  /** A member's device sends to the group (its own sender key, distributed pairwise to our device). */
  sendToGroup(from: string, to: string, group: string, message: object, fromDevice = 0): Promise<{ id: string }> {
    return this.call('POST', '/groups/send', { from, to, group, message, fromDevice });
  }

  /** The retry receipts the contact's devices sent for group messages they could not decrypt. */
  groupRetries(phone: string): Promise<{ id: string; group: string; device: number; count: number }[]> {
    return this.call('GET', `/groups/retries?phone=${phone}`);
  }

  /**
   * The account's phone changes a chat or message: one app-state patch, then a `server_sync` to the linked devices.
   * `corrupt` spoils the stored patch's MAC (the phone itself made the change all the same).
   */
  phoneChange(phone: string, chat: string, change: PhoneChange, corrupt = false): Promise<{ collection: string; version: number }> {
    return this.call('POST', '/app-state/phone-change', { phone, chat, ...change, corrupt });
  }

  /** The account's phone shares its app-state key with each device it links, at the device's first login. */
  async shareAppStateKeyAtPairing(phone: string): Promise<void> {
    await this.call('POST', '/app-state/share-at-pairing', { phone });
  }

  /** The phone shares its app-state key with each linked device that lacks it; resolves with those devices. */
  shareAppStateKey(phone: string): Promise<{ devices: string[] }> {
    return this.call('POST', '/app-state/share-key', { phone });
  }

  /** What the account's phone shows of its chats after every app-state patch it accepted. */
  phoneAppState(phone: string): Promise<PhoneAppState> {
    return this.call('GET', `/app-state?phone=${phone}`);
  }

  /** Every app-state snapshot the server served (to devices syncing a collection from scratch), in order. */
  appStateSnapshots(): Promise<{ collection: string; version: number; records: number; directPath: string }[]> {
    return this.call('GET', '/app-state/snapshots');
  }

  /**
   * A rival socket logs in as the device (same credentials, another process) after each of its next `times` logins,
   * `delayMs` after it; the server keeps the newest login and ends ours with a 440 conflict. Resolves with the ids of
   * the connections it replaced so far (also `rivalReplaced`).
   */
  rival(jid: string, times: number, delayMs = 300): Promise<{ replaced: number[] }> {
    return this.call('POST', '/devices/rival', { jid, times, delayMs });
  }

  rivalReplaced(jid: string): Promise<{ replaced: number[] }> {
    return this.call('GET', `/devices/rival?jid=${encodeURIComponent(jid)}`);
  }

  /**
   * The server refuses our device's messages to a contact (by phone) or a group with an error ack carrying `code`
   * (463, 479, 421), for `times` sends or until cleared with code null.
   */
  async refuse(target: { phone: string } | { group: string }, code: 421 | 463 | 479 | null, times?: number): Promise<void> {
    await this.call('POST', '/refusals', { ...target, code, times });
  }

  /** Every message stanza the server refused, in order. */
  refused(): Promise<{ id: string; to: string; code: number }[]> {
    return this.call('GET', '/refusals');
  }

  /**
   * The link drops after the server relayed each of our next `times` (default 1) messages to the contact: before the
   * server's ack (`ack: false`; the server never acks that stanza later) or right after it (`ack: true`).
   */
  async dropLinkAfter(phone: string, ack: boolean, times?: number): Promise<void> {
    await this.call('POST', '/link-drops', { phone, ack, times });
  }

  /** The server acks our next `times` (default 1) messages to the contact only `delayMs` late; the link stays up. */
  async delayAcks(phone: string, delayMs: number, times?: number): Promise<void> {
    await this.call('POST', '/late-acks', { phone, delayMs, times });
  }

  /** Every message stanza the link dropped after, in order. */
  linkDrops(): Promise<{ id: string; to: string; acked: boolean }[]> {
    return this.call('GET', '/link-drops');
  }

  async addressing(mode: 'pn' | 'lid'): Promise<void> {
    await this.call('POST', '/addressing', { mode });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
