import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { NetworkAuthRepository, NetworkMessageRepository } from '@app/database';
import { MetricsRegistry } from '@app/observability';
import type { NetworkDriver, NetworkSession, SessionHooks, SessionIdentity } from '../../driver';
import type { BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort } from '../baileys-context';
import { BaileysSession } from './baileys-session';
import type { BaileysLibraryLoader, BaileysLogger, BaileysSettings } from './baileys-settings';
import { BAILEYS_INBOUND, BAILEYS_LIBRARY, BAILEYS_LOGGER, BAILEYS_OPERATIONS, BAILEYS_SENDER, BAILEYS_SETTINGS } from './baileys-tokens';
import { WebVersion } from './web-version';

/** The real network, through Baileys: every instance whose `sandbox` flag is false. */
@Injectable()
export class BaileysDriver implements NetworkDriver, OnApplicationBootstrap {
  readonly kind = 'baileys' as const;
  /** Shared by all sessions: once the network refuses a version, no instance should offer it again. */
  private readonly version = new WebVersion();

  constructor(
    @Inject(BAILEYS_LIBRARY) private readonly library: BaileysLibraryLoader,
    @Inject(BAILEYS_SETTINGS) private readonly settings: BaileysSettings,
    @Inject(BAILEYS_LOGGER) private readonly logger: BaileysLogger,
    @Inject(BAILEYS_INBOUND) private readonly inbound: BaileysInboundPort,
    @Inject(BAILEYS_SENDER) private readonly sender: BaileysSenderPort,
    @Inject(BAILEYS_OPERATIONS) private readonly operations: BaileysOperationsPort,
    private readonly auth: NetworkAuthRepository,
    private readonly messages: NetworkMessageRepository,
    @Optional() private readonly metrics?: MetricsRegistry,
  ) {}

  /**
   * Loads the Baileys package while the worker starts. Loading it takes seconds (several under load), and paid by the
   * first real instance it ate the 10 s a command has: the first `GET /session/qr/text` after a start could answer 503.
   */
  onApplicationBootstrap(): void {
    this.library().catch((error: Error) => this.logger.error({ err: error }, 'the Baileys package could not be loaded'));
  }

  createSession(identity: SessionIdentity, hooks: SessionHooks): NetworkSession {
    return new BaileysSession(identity, hooks, {
      library: this.library,
      auth: this.auth,
      messages: this.messages,
      inbound: this.inbound,
      sender: this.sender,
      operations: this.operations,
      settings: this.settings,
      logger: this.logger,
      version: this.version,
      observeUndecryptable: (outcome) => this.metrics?.undecryptableMessages.inc({ outcome }),
    });
  }
}
