import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { InstanceRepository, SandboxRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import type { CreatedIdDto } from '../common/created-id.dto';
import type {
  OutboxEntryDto,
  SandboxConnectionDto,
  SandboxContactDto,
  SandboxGroupDto,
  SandboxInboundDto,
  SandboxPairDto,
  SandboxPairedDto,
  SandboxReceiptDto,
} from './dto/sandbox.dto';

/** Drives the simulated network of test-mode instances through the worker that owns them. */
@Injectable()
export class SandboxService {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly network: SandboxRepository,
    private readonly commands: CommandClient,
  ) {}

  async pair(scope: InstanceScope, dto: SandboxPairDto): Promise<SandboxPairedDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.pair', dto.phone ? { phone: dto.phone } : {});
  }

  async connection(scope: InstanceScope, dto: SandboxConnectionDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.connection', { state: dto.state });
  }

  async logout(scope: InstanceScope): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.logout', {});
  }

  async contact(scope: InstanceScope, dto: SandboxContactDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.contact', dto);
  }

  async group(scope: InstanceScope, dto: SandboxGroupDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.group', { ...dto, community: dto.community ?? false });
  }

  async inbound(scope: InstanceScope, dto: SandboxInboundDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.inbound', dto);
  }

  async receipt(scope: InstanceScope, dto: SandboxReceiptDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.receipt', dto);
  }

  async outbox(scope: InstanceScope): Promise<OutboxEntryDto[]> {
    await this.requireSandbox(scope);
    const messages = await this.network.messages(scope.instanceId, 'outbound');
    return messages.map((message) => ({
      id: message.id,
      to: message.chatJid,
      type: message.type,
      content: message.content,
      receivedAt: message.at.toISOString(),
    }));
  }

  private async requireSandbox(scope: InstanceScope): Promise<void> {
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance?.sandbox) throw new AppError('not_found');
  }
}
