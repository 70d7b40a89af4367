import {
  AppError,
  type NormalisedEvent,
  type OperationArgs,
  type OperationName,
  type OperationResult,
  type OutboundMessage,
  type StoreFacts,
} from '@app/contracts';
import type { NetworkSession, SentMessage, SessionHooks, SessionIdentity } from '../driver';
import { normalise } from '../events/normalise';
import { sandboxPairCode, sandboxQrCode } from './codes';
import type { AttachedLink } from './sandbox-link';
import type { SandboxNetwork } from './sandbox-network';
import type { SandboxOperations } from './operations/sandbox-operations';

export interface SandboxTiming {
  /** How often a fresh QR code replaces the previous one (the real network: about 20 s). */
  qrRotateMs: number;
  /** How many codes are offered before pairing times out. */
  qrCodes: number;
}

type State = 'idle' | 'pairing' | 'open' | 'closed';

/** One test-mode instance's link to the simulated network. */
export class SandboxSession implements NetworkSession, AttachedLink {
  private state: State = 'idle';
  private qr: string | undefined;
  private qrTimer: NodeJS.Timeout | undefined;
  private codesOffered = 0;
  pendingPairPhone: string | undefined;

  constructor(
    readonly identity: SessionIdentity,
    private readonly hooks: SessionHooks,
    private readonly network: SandboxNetwork,
    private readonly operations: SandboxOperations,
    private readonly timing: SandboxTiming,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  get isPairing(): boolean {
    return this.state === 'pairing';
  }

  async connect(): Promise<void> {
    this.network.attach(this);
    const device = await this.network.device(this.identity.instanceId);
    if (!device.deviceId) return this.startPairing();
    if (!device.online) {
      this.state = 'closed';
      this.hooks.closed('network', 'the phone is offline');
      return;
    }
    this.state = 'open';
    this.hooks.opened({ deviceId: device.deviceId, isNewLogin: false });
  }

  close(): Promise<void> {
    this.stopPairing();
    this.state = 'closed';
    this.network.detach(this);
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    await this.network.unpair(this.identity.instanceId);
    await this.close();
    this.hooks.closed('logged_out', 'api_logout');
  }

  currentQr(): string | undefined {
    return this.state === 'pairing' ? this.qr : undefined;
  }

  async requestPairCode(phone: string): Promise<string> {
    if (this.state === 'open') throw new AppError('device_already_paired');
    if (this.state !== 'pairing') await this.connect();
    this.pendingPairPhone = phone;
    return sandboxPairCode();
  }

  async send(message: OutboundMessage): Promise<SentMessage> {
    if (this.state !== 'open') throw new AppError('instance_unavailable');
    const sent = await this.network.receive(this.identity.instanceId, message);
    // A link drop set for the chat (`PUT /sandbox/link-drops`): the link goes down with the ack; the worker reconnects.
    if (sent.unconfirmed !== undefined && this.state === 'open') {
      this.state = 'closed';
      this.hooks.closed('network', 'the link dropped before the network acknowledged a message');
    }
    return sent;
  }

  async perform<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    if (this.state !== 'open') throw new AppError('instance_unavailable');
    return this.operations.perform(this.identity.instanceId, this, name, args);
  }

  async flushHistory(): Promise<void> {
    for (const event of await this.network.historyEvents(this.identity.instanceId)) this.deliver(event);
  }

  /**
   * The phone scanned the QR code (or typed the pair code). A new device gets the recent history; once it has it,
   * `initial_sync_finished` tells an instance that wants history that `flush-history` has something to deliver.
   */
  async completePairing(deviceId: string): Promise<void> {
    this.stopPairing();
    this.state = 'open';
    this.hooks.opened({ deviceId, isNewLogin: true });
    if (await this.hooks.historySyncEnabled()) this.deliver(normalise.initialSyncFinished());
  }

  /** The phone tried to pair and the network refused the device. */
  pairingFailed(deviceId: string, error: string): void {
    this.stopPairing();
    this.state = 'closed';
    this.network.detach(this);
    this.hooks.closed('pairing_failed', error, deviceId);
  }

  linkDropped(): void {
    if (this.state !== 'open') return;
    this.state = 'closed';
    this.hooks.closed('network', 'the phone went offline');
  }

  loggedOutFromPhone(): void {
    this.stopPairing();
    this.state = 'closed';
    this.network.detach(this);
    this.hooks.closed('logged_out', 'user_logged_out');
  }

  /** The network told the instance something about people or chats; only an open link hears it. */
  learn(facts: StoreFacts): void {
    if (this.state === 'open') this.hooks.learned(facts);
  }

  /** Something happened on the network for this instance; only an open link hears it. */
  deliver(event: NormalisedEvent): boolean {
    if (this.state !== 'open') return false;
    this.hooks.event(event);
    return true;
  }

  private startPairing(): void {
    this.state = 'pairing';
    this.codesOffered = 0;
    this.offerQr();
  }

  private offerQr(): void {
    if (this.codesOffered >= this.timing.qrCodes) {
      this.stopPairing();
      this.state = 'closed';
      this.hooks.closed('pairing_timeout', 'no QR code was scanned in time');
      return;
    }
    this.codesOffered += 1;
    this.qr = sandboxQrCode();
    this.hooks.qr(this.qr);
    this.qrTimer = setTimeout(() => this.offerQr(), this.timing.qrRotateMs);
    this.qrTimer.unref();
  }

  private stopPairing(): void {
    if (this.qrTimer) clearTimeout(this.qrTimer);
    this.qrTimer = undefined;
    this.qr = undefined;
  }
}
