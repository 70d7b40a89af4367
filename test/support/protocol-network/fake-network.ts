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
}

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

export interface PairingCompanion {
  refs: string[];
  noiseKey: string;
  identityKey: string;
  platform: string;
}

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
    private readonly errors: () => string,
  ) {}

  static async start(): Promise<FakeNetworkProcess> {
    const child = spawn(process.execPath, [join(__dirname, 'main.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the fake network exited with ${code}:\n${stderr}`)));
    });
    const info = JSON.parse(firstLine) as { webSocketUrl: string; controlUrl: string; rootPublicKey: string; mediaCertificate: string };
    return new FakeNetworkProcess(child, info.webSocketUrl, info.controlUrl, info.rootPublicKey, info.mediaCertificate, () => stderr);
  }

  workerEnv(): Record<string, string> {
    return {
      BAILEYS_WS_URL: this.webSocketUrl,
      BAILEYS_TEST_NETWORK_ROOT_KEY: this.rootPublicKey,
      NODE_EXTRA_CA_CERTS: this.mediaCertificate,
    };
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
  sendFromContact(from: string, to: string, message: object, extra: { type?: string; mediatype?: string } = {}): Promise<{ id: string }> {
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
