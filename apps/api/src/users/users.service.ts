import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { PHONE } from '../common/validators';
import type { BulkCheckDto, SetPresenceDto, SetPrivacyDto, UpdateProfileDto } from './dto/users.dto';
import type { BulkCheckResultDto, PrivacySettingsDto, UserCheckDto, UserInfoDto, UserMeInfoDto } from './dto/user-info.dto';
import { privacySettingNamed } from './privacy-names';
import { ownProfileBody, privacyBody, userProfileBody } from './user-bodies';

/** The account's own profile, presence and privacy, and what the network says about other numbers. */
@Injectable()
export class UsersService {
  constructor(private readonly commands: CommandClient) {}

  async ownProfile(scope: InstanceScope): Promise<UserMeInfoDto> {
    return ownProfileBody(await this.commands.perform(scope.instanceId, 'users.ownProfile', {}));
  }

  async updateProfile(scope: InstanceScope, dto: UpdateProfileDto): Promise<void> {
    if (dto.name === undefined && dto.status === undefined && dto.picture === undefined)
      throw AppError.validation('at least one of name, status and picture is required');
    await this.commands.perform(scope.instanceId, 'users.updateProfile', {
      ...(dto.name !== undefined ? { name: dto.name } : {}),
      ...(dto.status !== undefined ? { status: dto.status } : {}),
      ...(dto.picture !== undefined ? { picture: dto.picture } : {}),
    });
  }

  async setPresence(scope: InstanceScope, dto: SetPresenceDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'users.setPresence', { presence: dto.presence });
  }

  async privacy(scope: InstanceScope): Promise<PrivacySettingsDto> {
    return privacyBody(await this.commands.perform(scope.instanceId, 'users.privacy', {}));
  }

  async setPrivacy(scope: InstanceScope, dto: SetPrivacyDto): Promise<PrivacySettingsDto> {
    // The DTO admits only names that resolve, and values their setting allows.
    const setting = privacySettingNamed(dto.setting)!;
    return privacyBody(await this.commands.perform(scope.instanceId, 'users.setPrivacy', { setting, value: dto.value }));
  }

  async check(scope: InstanceScope, dto: BulkCheckDto): Promise<BulkCheckResultDto[]> {
    // The DTO admits only international numbers; answers name each as the caller wrote it.
    const phones = dto.phones.map((phone) => PHONE.accept(phone) ?? phone);
    const { results } = await this.commands.perform(scope.instanceId, 'users.check', { phones: [...new Set(phones)] });
    const byPhone = new Map(results.map((result) => [result.phone, result]));
    return dto.phones.map((query, index) => {
      const result = byPhone.get(phones[index]);
      return result?.exists && result.jid ? { query, isInWhatsApp: true, jid: result.jid } : { query, isInWhatsApp: false };
    });
  }

  async checkOne(scope: InstanceScope, phone: string): Promise<UserCheckDto> {
    const { results } = await this.commands.perform(scope.instanceId, 'users.check', { phones: [phone] });
    return { isInWhatsApp: results[0]?.exists ?? false };
  }

  async profile(scope: InstanceScope, phone: string): Promise<UserInfoDto> {
    return userProfileBody(await this.commands.perform(scope.instanceId, 'users.profile', { jid: `${phone}@s.whatsapp.net` }));
  }
}
