import { Body, Controller, HttpCode, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { REQUIRED } from '../common/validators';
import { IsNotBlank, MaxChars } from '../messages/dto/message.validators';

export class SandboxChannelDto {
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotBlank()
  @MaxChars(100)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxChars(2048)
  description?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000_000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  subscriberCount?: number;

  @IsOptional()
  @IsBoolean()
  verified?: boolean;
}

export class SandboxChannelCreatedDto {
  @ApiProperty({ description: 'channel JID' })
  id!: string;

  @ApiProperty({ description: 'the code of the channel link' })
  inviteCode!: string;
}

export class SandboxStatusPrivacyDto {
  @ApiProperty({ enum: ['contacts', 'blacklist', 'whitelist'] })
  @IsDefined(REQUIRED)
  @IsIn(['contacts', 'blacklist', 'whitelist'])
  type!: 'contacts' | 'blacklist' | 'whitelist';

  @ApiPropertyOptional({ type: [String], description: 'user JIDs or numbers; empty for contacts' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  list?: string[];
}

/** Test mode: channels that exist on the network (owned by others), and the phone's status privacy. */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(404, 503)
@Controller('sandbox')
export class SandboxChannelsController {
  constructor(private readonly commands: CommandClient) {}

  /** A channel someone else owns appears on the network; the account does not follow it. */
  @Post('channels')
  @ApiCreatedResponse({ type: SandboxChannelCreatedDto })
  publishChannel(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxChannelDto): Promise<SandboxChannelCreatedDto> {
    return this.commands.request(scope.instanceId, 'sandbox.channel', dto);
  }

  /** The phone changes who may see the account's status posts. */
  @Put('status-privacy')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'status privacy changed' })
  async statusPrivacy(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxStatusPrivacyDto): Promise<void> {
    await this.commands.request(scope.instanceId, 'sandbox.statusPrivacy', { type: dto.type, list: dto.list ?? [] });
  }
}
