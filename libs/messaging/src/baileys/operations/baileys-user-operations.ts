import type {
  WAPrivacyCallValue,
  WAPrivacyGroupAddValue,
  WAPrivacyOnlineValue,
  WAPrivacyValue,
  WAReadReceiptsValue,
} from '@whiskeysockets/baileys';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  PRIVACY_SETTINGS,
  normaliseUserId,
  type OwnProfile,
  type PrivacySetting,
  type PrivacySettings,
  type UserOperations,
  type UserProfile,
} from '@app/contracts';
import { ContactStoreRepository } from '@app/database';
import type { BaileysContext } from '../baileys-context';
import type { BaileysSocket } from '../baileys-library';
import { isLidJid, isPhoneJid, partyOf, phoneDigits } from './jids';
import { lidOf, phoneOf } from '../lid-mapping';
import type { BaileysOperationHandlers } from './operation-handlers';
import { optionalPicture } from './pictures';

/** One Baileys call per privacy setting; the API's DTO admits only values PRIVACY_VALUES allows for the setting. */
const PRIVACY_UPDATES: Record<PrivacySetting, (socket: BaileysSocket, value: string) => Promise<void>> = {
  groupadd: (socket, value) => socket.updateGroupsAddPrivacy(value as WAPrivacyGroupAddValue),
  last: (socket, value) => socket.updateLastSeenPrivacy(value as WAPrivacyValue),
  status: (socket, value) => socket.updateStatusPrivacy(value as WAPrivacyValue),
  profile: (socket, value) => socket.updateProfilePicturePrivacy(value as WAPrivacyValue),
  readreceipts: (socket, value) => socket.updateReadReceiptsPrivacy(value as WAReadReceiptsValue),
  online: (socket, value) => socket.updateOnlinePrivacy(value as WAPrivacyOnlineValue),
  calladd: (socket, value) => socket.updateCallPrivacy(value as WAPrivacyCallValue),
};

/**
 * The account's own profile, presence and privacy, and what the network shows of other users. Profile changes reach
 * the account's other devices through the network (the name as an app-state patch, the picture as a notification);
 * nothing comes back to this device for them, so they cause no gateway event here.
 */
@Injectable()
export class BaileysUserOperations {
  constructor(private readonly contacts: ContactStoreRepository) {}

  readonly handlers: BaileysOperationHandlers<UserOperations> = {
    'users.ownProfile': async (context) => ownProfile(context),

    'users.updateProfile': async ({ socket, selfJid }, { name, status, picture }) => {
      if (name !== undefined) await socket.updateProfileName(name);
      if (status !== undefined) await socket.updateProfileStatus(status);
      if (picture !== undefined) await socket.updateProfilePicture(selfJid, Buffer.from(picture, 'base64'));
      return {};
    },

    'users.setPresence': async ({ socket }, { presence }) => {
      // Baileys drops available/unavailable silently while the account has no push name; say so instead.
      if (!socket.authState.creds.me?.name)
        throw AppError.validation('the account has no profile name yet; set one before changing its presence');
      await socket.sendPresenceUpdate(presence);
      return {};
    },

    'users.privacy': async ({ socket }) => privacyOf(socket),

    'users.setPrivacy': async ({ socket }, { setting, value }) => {
      await PRIVACY_UPDATES[setting](socket, value);
      return privacyOf(socket);
    },

    'users.check': async ({ socket }, { phones }) => {
      const jids = phones.map((phone) => {
        const jid = normaliseUserId(phone);
        if (!jid || !isPhoneJid(jid)) throw AppError.validation(`phone ${phone} is not an international number`);
        return jid;
      });
      // The network lists only registered numbers, each under the JID it knows them by.
      const registered = new Map(
        ((await socket.onWhatsApp(...jids)) ?? [])
          .filter((found) => found.exists)
          .map((found) => [phoneDigits(found.jid), found.jid] as const),
      );
      return {
        results: phones.map((phone, index) => {
          const jid = registered.get(phoneDigits(jids[index]));
          return jid ? { phone, exists: true, jid } : { phone, exists: false };
        }),
      };
    },

    'users.profile': async (context, { jid }) => this.profile(context, jid),
  };

  private async profile(context: BaileysContext, jid: string): Promise<UserProfile> {
    if (jid === context.selfJid || jid === context.selfLid) {
      const { device: _device, ...own } = await ownProfile(context);
      return { ...own, isVerified: false };
    }
    if (isPhoneJid(jid) && !((await context.socket.onWhatsApp(jid)) ?? []).some((found) => found.exists)) throw new AppError('not_found');
    const [status, picture, party] = await Promise.all([
      statusOf(context, jid),
      optionalPicture(context, jid),
      isLidJid(jid) ? phoneOf(context, jid).then((phoneNumber) => partyOf(jid, { phoneNumber })) : withKnownLid(context, jid),
    ]);
    // Push and business names are not queryable: the network sends them with messages, and the store keeps them.
    const stored =
      (await this.contacts.find(context.instanceId, party.jid)) ??
      (party.lid ? await this.contacts.byLid(context.instanceId, party.lid) : null);
    return {
      jid: party.jid,
      ...(party.lid ? { lid: party.lid } : {}),
      ...(stored?.pushName ? { pushName: stored.pushName } : {}),
      ...(status ? { status } : {}),
      ...(picture ? { pictureId: picture.pictureId, pictureUrl: picture.pictureUrl } : {}),
      ...(stored?.businessName ? { businessName: stored.businessName } : {}),
      // Baileys exposes no verification level for other accounts; only the business name is known.
      isVerified: false,
    };
  }
}

/** A phone-number JID with the LID Baileys knows or looks up for it. */
async function withKnownLid(context: BaileysContext, jid: string) {
  return partyOf(jid, { lid: isPhoneJid(jid) ? await lidOf(context, jid) : undefined });
}

async function ownProfile(context: BaileysContext): Promise<OwnProfile> {
  const me = context.socket.authState.creds.me;
  // This linked device's JID is `<phone>:<device>@s.whatsapp.net`.
  const device = Number(/:(\d+)@/.exec(me?.id ?? '')?.[1] ?? 0);
  const [status, picture] = await Promise.all([statusOf(context, context.selfJid), optionalPicture(context, context.selfJid)]);
  return {
    jid: context.selfJid,
    device,
    ...(me?.name ? { pushName: me.name } : {}),
    ...(status ? { status } : {}),
    ...(picture ? { pictureId: picture.pictureId } : {}),
  };
}

/** The "about" text; the network answers an empty one for people who hide it from this account. */
async function statusOf({ socket }: BaileysContext, jid: string): Promise<string | undefined> {
  const [entry] = (await socket.fetchStatus(jid)) ?? [];
  const status = (entry?.status as { status?: string | null } | undefined)?.status;
  return status ? status : undefined;
}

/** Every setting the network reports; it lists all of them, a missing one would be at its default (`all`). */
async function privacyOf(socket: BaileysSocket): Promise<PrivacySettings> {
  const reported = await socket.fetchPrivacySettings(true);
  return Object.fromEntries(PRIVACY_SETTINGS.map((setting) => [setting, reported[setting] ?? 'all'])) as PrivacySettings;
}
