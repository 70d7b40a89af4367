import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { InstanceRepository, SandboxRepository, SandboxWorldRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import type { CreatedIdDto } from '../common/created-id.dto';
import type {
  InboxEntryDto,
  NetworkOperationDto,
  OutboxEntryDto,
  SandboxCallDto,
  SandboxCallEndDto,
  SandboxChatSettingDto,
  SandboxConnectionDto,
  SandboxContactDto,
  SandboxDeleteDto,
  SandboxGroupChangeDto,
  SandboxGroupDto,
  CreatedIdsDto,
  SandboxInboundBatchDto,
  SandboxInboundDto,
  SandboxNewsletterDto,
  SandboxNewsletterMuteDto,
  SandboxPairDto,
  SandboxPairedDto,
  SandboxPresenceDto,
  SandboxProfileDto,
  SandboxReceiptDto,
  SandboxStarDto,
} from './dto/sandbox.dto';
import type { SandboxEditDto } from './dto/sandbox-edit.dto';

/** A thousand inbound messages take the worker well under a second each; the default 10 s deadline is for one. */
const INBOUND_BATCH_DEADLINE_MS = 60_000;

/** Drives the simulated network of test-mode instances through the worker that owns them. */
@Injectable()
export class SandboxService {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly network: SandboxRepository,
    private readonly world: SandboxWorldRepository,
    private readonly commands: CommandClient,
  ) {}

  async pair(scope: InstanceScope, dto: SandboxPairDto): Promise<SandboxPairedDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.pair', {
      ...(dto.phone ? { phone: dto.phone } : {}),
      ...(dto.error !== undefined ? { error: dto.error } : {}),
    });
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

  /** Up to 1,000 inbound messages in one command; the worker checks them all before delivering the first. */
  async inboundBatch(scope: InstanceScope, dto: SandboxInboundBatchDto): Promise<CreatedIdsDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.inboundBatch', dto, INBOUND_BATCH_DEADLINE_MS);
  }

  async receipt(scope: InstanceScope, dto: SandboxReceiptDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.receipt', dto);
  }

  async deleteMessage(scope: InstanceScope, dto: SandboxDeleteDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.delete', dto);
  }

  async editMessage(scope: InstanceScope, dto: SandboxEditDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.edit', dto);
  }

  async star(scope: InstanceScope, dto: SandboxStarDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.star', dto);
  }

  async presence(scope: InstanceScope, dto: SandboxPresenceDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.presence', dto);
  }

  async chatSetting(scope: InstanceScope, dto: SandboxChatSettingDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.chatSetting', dto);
  }

  async profile(scope: InstanceScope, dto: SandboxProfileDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.profile', dto);
  }

  async groupChange(scope: InstanceScope, groupId: string, dto: SandboxGroupChangeDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.groupChange', { ...dto, groupId });
  }

  async joinNewsletter(scope: InstanceScope, dto: SandboxNewsletterDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.newsletterJoin', { name: dto.name, role: dto.role ?? 'SUBSCRIBER' });
  }

  async leaveNewsletter(scope: InstanceScope, id: string): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.newsletterLeave', { id });
  }

  async muteNewsletter(scope: InstanceScope, id: string, dto: SandboxNewsletterMuteDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.newsletterMute', { id, muted: dto.muted });
  }

  async offerCall(scope: InstanceScope, dto: SandboxCallDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.callOffer', { ...dto, video: dto.video ?? false });
  }

  async acceptCall(scope: InstanceScope, id: string): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.callAccept', { id });
  }

  async endCall(scope: InstanceScope, id: string, dto: SandboxCallEndDto): Promise<void> {
    await this.requireSandbox(scope);
    await this.commands.request(scope.instanceId, 'sandbox.callEnd', { id, reason: dto.reason });
  }

  async inbox(scope: InstanceScope): Promise<InboxEntryDto[]> {
    await this.requireSandbox(scope);
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

  async operations(scope: InstanceScope): Promise<NetworkOperationDto[]> {
    await this.requireSandbox(scope);
    const operations = await this.world.operations(scope.instanceId);
    return operations.map((operation) => ({
      name: operation.name,
      args: operation.args as Record<string, unknown>,
      at: operation.at.toISOString(),
    }));
  }

  private async requireSandbox(scope: InstanceScope): Promise<void> {
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance?.sandbox) throw new AppError('not_found');
  }
}
