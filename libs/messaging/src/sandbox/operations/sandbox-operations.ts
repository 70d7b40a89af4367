import { Injectable } from '@nestjs/common';
import type { NetworkOperations, OperationArgs, OperationName, OperationResult } from '@app/contracts';
import { SandboxWorldRepository } from '@app/database';
import { SandboxNetwork } from '../sandbox-network';
import type { SandboxSession } from '../sandbox-session';
import { SandboxChatOperations } from './chat-operations';
import type { OperationContext, OperationHandlers } from './operation-handlers';

/**
 * The simulated network's side of every network operation. The table must cover every operation of the contract
 * (the compiler checks it), and each one the network carried out is journaled for tests to inspect.
 */
@Injectable()
export class SandboxOperations {
  private readonly handlers: OperationHandlers<NetworkOperations>;

  constructor(
    private readonly network: SandboxNetwork,
    private readonly world: SandboxWorldRepository,
    chats: SandboxChatOperations,
  ) {
    this.handlers = { ...chats.handlers };
  }

  async perform<N extends OperationName>(session: SandboxSession, name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    const instanceId = session.identity.instanceId;
    const context: OperationContext = { instanceId, self: await this.network.selfJid(instanceId), session };
    // The table is indexed by a union of names, so TypeScript cannot pair this handler with N by itself.
    const handler: (context: OperationContext, args: OperationArgs<N>) => Promise<OperationResult<N>> = this.handlers[name] as never;
    const result = await handler(context, args);
    await this.world.journal(instanceId, name, args);
    return result;
  }
}
