import type { NormalisedEvent, StoreFacts } from '@app/contracts';
import type { SessionIdentity } from '../driver';

/** What an operation or a happening needs of an instance's session: a way to tell the instance what the network did. */
export interface SandboxLink {
  /** Something happened on the network for this instance; only an open link hears it (answers whether it did). */
  deliver(event: NormalisedEvent): boolean;
  /** The network told the instance something about people or chats; only an open link hears it. */
  learn(facts: StoreFacts): void;
}

/** A session attached to the network, as the phone acts on it: pairing, dropping the link, logging out. */
export interface AttachedLink extends SandboxLink {
  readonly identity: SessionIdentity;
  readonly isOpen: boolean;
  readonly isPairing: boolean;
  /** The number a pair code was requested for, which the phone then pairs as. */
  readonly pendingPairPhone: string | undefined;
  completePairing(deviceId: string): Promise<void>;
  pairingFailed(deviceId: string, error: string): void;
  linkDropped(): void;
  loggedOutFromPhone(): void;
}
