import { phoneOfJid, type OwnProfile, type PrivacySettings, type UserProfile } from '@app/contracts';
import type { PrivacySettingsDto, UserInfoDto, UserMeInfoDto } from './dto/user-info.dto';

export function ownProfileBody(profile: OwnProfile): UserMeInfoDto {
  return {
    id: profile.jid,
    phone: phoneOfJid(profile.jid) ?? '',
    ...(profile.device ? { deviceId: profile.device } : {}),
    ...(profile.pushName ? { pushName: profile.pushName } : {}),
    ...(profile.businessName ? { businessName: profile.businessName } : {}),
    ...(profile.status ? { status: profile.status } : {}),
    ...(profile.pictureId ? { pictureId: profile.pictureId } : {}),
  };
}

export function userProfileBody(profile: UserProfile): UserInfoDto {
  return {
    id: profile.jid,
    ...(profile.lid ? { lid: profile.lid } : {}),
    phone: phoneOfJid(profile.jid) ?? '',
    isInWhatsApp: true,
    ...(profile.pushName ? { pushName: profile.pushName } : {}),
    ...(profile.status ? { status: profile.status } : {}),
    ...(profile.pictureId ? { pictureId: profile.pictureId } : {}),
    ...(profile.pictureUrl ? { pictureUrl: profile.pictureUrl } : {}),
    ...(profile.businessName ? { businessName: profile.businessName } : {}),
    isVerified: profile.isVerified,
  };
}

/** The network's setting names, spelled as the API shows them. */
export function privacyBody(settings: PrivacySettings): PrivacySettingsDto {
  return {
    groupAdd: settings.groupadd,
    lastSeen: settings.last,
    status: settings.status,
    profile: settings.profile,
    readReceipts: settings.readreceipts,
    online: settings.online,
    callAdd: settings.calladd,
  };
}
