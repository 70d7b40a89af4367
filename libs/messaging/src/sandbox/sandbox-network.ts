import { Injectable } from '@nestjs/common';
import type { NormalisedEvent, OutboundMessage } from '@app/contracts';
import { SandboxRepository, type SandboxDeviceState } from '@app/database';
import type { SentMessage } from '../driver';
import type { AttachedLink } from './sandbox-link';
import { SandboxLinks } from './sandbox-links';
import { SandboxSends } from './sandbox-sends';

/**
 * The simulated network as an instance's session meets it: the session attaches to it (`SandboxLinks`), reads its
 * device, hands it messages and asks for the chat history (`SandboxSends`). What the phone and the contacts do is in
 * `SandboxPhone`, `SandboxSetup`, `SandboxInbound` and `SandboxHappenings`, driven by the sandbox control API through
 * the worker that owns the instance.
 */
@Injectable()
export class SandboxNetwork {
  constructor(
    private readonly store: SandboxRepository,
    private readonly links: SandboxLinks,
    private readonly sends: SandboxSends,
  ) {}

  attach(link: AttachedLink): void {
    this.links.attach(link);
  }

  detach(link: AttachedLink): void {
    this.links.detach(link);
  }

  device(instanceId: string): Promise<SandboxDeviceState> {
    return this.store.device(instanceId);
  }

  unpair(instanceId: string): Promise<void> {
    return this.store.unpair(instanceId);
  }

  /** The network takes a message (or an edit, delete or reaction) from the instance. */
  receive(instanceId: string, message: OutboundMessage): Promise<SentMessage> {
    return this.sends.receive(instanceId, message);
  }

  /** The chat history the network holds, as `message_history_sync` events. */
  historyEvents(instanceId: string): Promise<NormalisedEvent[]> {
    return this.sends.historyEvents(instanceId);
  }
}
