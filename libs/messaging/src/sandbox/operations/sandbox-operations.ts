import { Injectable } from '@nestjs/common';
import type { NetworkOperations, OperationArgs, OperationName, OperationResult } from '@app/contracts';
import { SandboxWorldRepository } from '@app/database';
import type { SandboxLink } from '../sandbox-link';
import { SandboxPeople } from '../sandbox-people';
import { SandboxCallOperations } from './sandbox-call-operations';
import { SandboxChatOperations } from './sandbox-chat-operations';
import { SandboxGroupOperations } from './sandbox-group-operations';
import { SandboxMediaOperations } from './sandbox-media-operations';
import { SandboxUserOperations } from './sandbox-user-operations';
import { SandboxCommunityOperations } from './sandbox-community-operations';
import { SandboxContactOperations } from './sandbox-contact-operations';
import { SandboxNewsletterOperations } from './sandbox-newsletter-operations';
import { SandboxStatusOperations } from './sandbox-status-operations';
import type { OperationContext, OperationHandlers } from './operation-handlers';

/**
 * The simulated network's side of every network operation. The table must cover every operation of the contract
 * (the compiler checks it), and each one the network carried out is journaled for tests to inspect.
 */
@Injectable()
export class SandboxOperations {
  private readonly handlers: Record<string, (context: OperationContext, args: unknown) => Promise<unknown>>;

  constructor(
    private readonly people: SandboxPeople,
    private readonly world: SandboxWorldRepository,
    chats: SandboxChatOperations,
    groups: SandboxGroupOperations,
    users: SandboxUserOperations,
    calls: SandboxCallOperations,
    media: SandboxMediaOperations,
    communities: SandboxCommunityOperations,
    contacts: SandboxContactOperations,
    newsletters: SandboxNewsletterOperations,
    status: SandboxStatusOperations,
  ) {
    // Typed as the whole contract, so an operation without a sandbox handler does not compile.
    const table: OperationHandlers<NetworkOperations> = {
      ...chats.handlers,
      ...groups.handlers,
      ...communities.handlers,
      ...users.handlers,
      ...calls.handlers,
      ...media.handlers,
      ...contacts.handlers,
      ...newsletters.handlers,
      ...status.handlers,
    };
    this.handlers = table as unknown as typeof this.handlers;
  }

  async perform<N extends OperationName>(
    instanceId: string,
    session: SandboxLink,
    name: N,
    args: OperationArgs<N>,
  ): Promise<OperationResult<N>> {
    const context: OperationContext = { instanceId, self: await this.people.selfJid(instanceId), session };
    const result = (await this.handlers[name](context, args)) as OperationResult<N>;
    await this.world.journal(instanceId, name, args);
    return result;
  }
}
