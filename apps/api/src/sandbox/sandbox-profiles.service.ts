import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import type { CreatedIdDto } from '../common/created-id.dto';
import type { SandboxBusinessProfileDto, SandboxPictureSetDto, SandboxProfilePictureDto } from './dto/sandbox-profiles.dto';

/** Drives what contacts of a test-mode instance show of themselves. */
@Injectable()
export class SandboxProfilesService {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly commands: CommandClient,
  ) {}

  async businessProfile(scope: InstanceScope, dto: SandboxBusinessProfileDto): Promise<CreatedIdDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.businessProfile', dto);
  }

  async profilePicture(scope: InstanceScope, dto: SandboxProfilePictureDto): Promise<SandboxPictureSetDto> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, 'sandbox.profilePicture', { id: dto.id, hidden: dto.hidden ?? false });
  }

  private async requireSandbox(scope: InstanceScope): Promise<void> {
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance?.sandbox) throw new AppError('not_found');
  }
}
