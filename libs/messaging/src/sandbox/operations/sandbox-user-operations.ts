import { Injectable } from '@nestjs/common';
import {
  AppError,
  PRIVACY_SETTINGS,
  normaliseUserId,
  type OwnProfile,
  type PrivacySettings,
  type UserOperations,
  type UserProfile,
} from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { normalise } from '../../events/normalise';
import { pictureId } from '../codes';
import { SandboxDirectory, type NetworkUser } from '../sandbox-directory';
import type { OperationContext, OperationHandlers } from './operation-handlers';

const OWN_PROFILE = 'own-profile';
const PRIVACY = 'privacy';
const PRESENCE = 'presence';
const SELF = 'self';

/** A new account's settings: everyone may see and reach it, as on a freshly registered phone. */
const DEFAULT_PRIVACY: PrivacySettings = Object.fromEntries(PRIVACY_SETTINGS.map((setting) => [setting, 'all'])) as PrivacySettings;

/**
 * The account's own profile, presence and privacy, and what the network tells it about other users. Changes to the
 * own profile reach the account's other devices as the events the network sends them; other users' profiles are
 * shown only as far as their privacy settings allow this account to see them.
 */
@Injectable()
export class SandboxUserOperations {
  constructor(
    private readonly world: SandboxWorldRepository,
    private readonly store: SandboxRepository,
    private readonly directory: SandboxDirectory,
  ) {}

  readonly handlers: OperationHandlers<UserOperations> = {
    'users.ownProfile': async ({ instanceId, self }) => this.ownProfile(instanceId, self),
    'users.updateProfile': async (context, change) => {
      await this.updateProfile(context, change);
      return {};
    },
    'users.setPresence': async ({ instanceId }, { presence }) => {
      await this.world.putRecord(instanceId, PRESENCE, SELF, { presence, at: new Date().toISOString() });
      return {};
    },
    'users.privacy': async ({ instanceId }) => this.privacy(instanceId),
    'users.setPrivacy': async ({ instanceId }, { setting, value }) => {
      const settings = { ...(await this.privacy(instanceId)), [setting]: value };
      await this.world.putRecord(instanceId, PRIVACY, SELF, settings);
      return settings;
    },
    'users.check': async ({ instanceId, self }, { phones }) => ({
      results: await Promise.all(
        phones.map(async (phone) => {
          const jid = normaliseUserId(phone);
          if (!jid) throw AppError.validation(`phone ${phone} is not an international number`);
          const exists = jid === self || (await this.directory.find(instanceId, jid)) !== undefined;
          return exists ? { phone, exists, jid } : { phone, exists };
        }),
      ),
    }),
    'users.profile': async ({ instanceId, self }, { jid }) => {
      if (jid === self) {
        const { device: _device, ...own } = await this.ownProfile(instanceId, self);
        return { ...own, isVerified: false };
      }
      const user = await this.directory.find(instanceId, jid);
      if (!user) throw new AppError('not_found');
      return this.visibleProfile(user);
    },
  };

  private async ownProfile(instanceId: string, self: string): Promise<OwnProfile> {
    const [stored, device] = await Promise.all([
      this.world.record<Omit<OwnProfile, 'jid' | 'device'>>(instanceId, OWN_PROFILE, SELF),
      this.store.device(instanceId),
    ]);
    // The linked device's JID is `<phone>:<device>@s.whatsapp.net`.
    const number = Number(/:(\d+)@/.exec(device.deviceId ?? '')?.[1] ?? 0);
    return { jid: self, device: number, ...stored };
  }

  private async privacy(instanceId: string): Promise<PrivacySettings> {
    return { ...DEFAULT_PRIVACY, ...(await this.world.record<Partial<PrivacySettings>>(instanceId, PRIVACY, SELF)) };
  }

  /** Name, about text and picture change in that order, each announced to the account's devices as it lands. */
  private async updateProfile(
    { instanceId, self, session }: OperationContext,
    change: { name?: string; status?: string; picture?: string },
  ): Promise<void> {
    const { jid: _jid, device: _device, ...profile } = await this.ownProfile(instanceId, self);
    const user = { jid: self };
    const newPicture = change.picture !== undefined ? pictureId() : undefined;
    await this.world.putRecord(instanceId, OWN_PROFILE, SELF, {
      ...profile,
      ...(change.name !== undefined ? { pushName: change.name } : {}),
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(newPicture ? { pictureId: newPicture } : {}),
    });
    if (change.name !== undefined) session.deliver(normalise.chatPushName({ user, pushName: change.name }));
    if (change.status !== undefined) session.deliver(normalise.chatStatus({ user, status: change.status }));
    if (newPicture) session.deliver(normalise.chatPicture({ chatId: self, sender: { ...user, isMe: true }, pictureId: newPicture }));
  }

  /** The profile as this account may see it: what the user hides from it is left out. */
  private visibleProfile(user: NetworkUser): UserProfile {
    const shows = (audience: NetworkUser['privacy']['status']) =>
      audience === 'all' || ((audience === 'contacts' || audience === 'contact_blacklist') && user.savedYou);
    return {
      jid: user.jid,
      ...(user.lid ? { lid: user.lid } : {}),
      ...(user.pushName ? { pushName: user.pushName } : {}),
      ...(user.about !== undefined && shows(user.privacy.status) ? { status: user.about } : {}),
      ...(user.pictureId && shows(user.privacy.profile) ? { pictureId: user.pictureId } : {}),
      ...(user.businessName ? { businessName: user.businessName } : {}),
      isVerified: user.verified,
    };
  }
}
