import { Injectable } from '@nestjs/common';
import type { NetworkDriver, NetworkSession, SessionHooks, SessionIdentity } from '../driver';
import { SandboxOperations } from './operations/sandbox-operations';
import { SandboxNetwork } from './sandbox-network';
import { SandboxSession, type SandboxTiming } from './sandbox-session';

export const DEFAULT_SANDBOX_TIMING: SandboxTiming = { qrRotateMs: 20_000, qrCodes: 6 };

@Injectable()
export class SandboxDriver implements NetworkDriver {
  readonly kind = 'sandbox' as const;
  timing: SandboxTiming = DEFAULT_SANDBOX_TIMING;

  constructor(
    readonly network: SandboxNetwork,
    private readonly operations: SandboxOperations,
  ) {}

  createSession(identity: SessionIdentity, hooks: SessionHooks): NetworkSession {
    return new SandboxSession(identity, hooks, this.network, this.operations, this.timing);
  }
}
