import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { SandboxControlService } from '../sandbox-control.service';
import type { InboxEntryDto, NetworkOperationDto, OutboxEntryDto } from './sandbox-journal.dto';

/** Reads what the simulated network holds for a sandbox instance: its messages both ways and the operations it carried out. */
@Injectable()
export class SandboxJournalService {
  constructor(
    private readonly sandbox: SandboxControlService,
    private readonly network: SandboxRepository,
    private readonly world: SandboxWorldRepository,
  ) {}

  async inbox(scope: InstanceScope): Promise<InboxEntryDto[]> {
    await this.sandbox.requireSandbox(scope);
    const messages = await this.network.messages(scope.instanceId, 'inbound');
    return messages.map((message) => ({
      id: message.id,
      from: message.senderJid,
      chatId: message.chatJid,
      type: message.type,
      content: message.content,
      receivedAt: message.at.toISOString(),
    }));
  }

  async outbox(scope: InstanceScope): Promise<OutboxEntryDto[]> {
    await this.sandbox.requireSandbox(scope);
    const messages = await this.network.messages(scope.instanceId, 'outbound');
    return messages.map((message) => ({
      id: message.id,
      to: message.chatJid,
      type: message.type,
      content: message.content,
      receivedAt: message.at.toISOString(),
    }));
  }

  async operations(scope: InstanceScope): Promise<NetworkOperationDto[]> {
    await this.sandbox.requireSandbox(scope);
    const operations = await this.world.operations(scope.instanceId);
    return operations.map((operation) => ({
      name: operation.name,
      args: operation.args as Record<string, unknown>,
      at: operation.at.toISOString(),
    }));
  }
}
