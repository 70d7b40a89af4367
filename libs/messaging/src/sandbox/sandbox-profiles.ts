import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, jidKind, normaliseUserId, type CommandArgs } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { normalise } from '../events/normalise';
import { pictureId } from './codes';
import { SandboxLinks } from './sandbox-links';
import { SandboxPeople } from './sandbox-people';
import { WORLD_KINDS, type StoredBusinessProfile, type StoredProfilePicture } from './world-kinds';

/** What contacts show of themselves on the simulated network: business profiles and profile pictures. */
@Injectable()
export class SandboxProfiles {
  constructor(
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly world: SandboxWorldRepository,
  ) {}

  /** A contact turns their account into a business with this profile; their messages now carry the business name. */
  async setBusinessProfile(instanceId: string, args: CommandArgs<'sandbox.businessProfile'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const jid = this.user(args.id);
    const { id: _id, categories, ...details } = args;
    const profile: StoredBusinessProfile = {
      ...details,
      memberSince: new Date().toISOString(),
      ...(categories?.length
        ? { categories: categories.map((name) => ({ id: String(randomInt(100_000_000_000_000, 281_000_000_000_000)), name })) }
        : {}),
    };
    await this.world.putRecord(instanceId, WORLD_KINDS.businessProfile, jid, profile);
    const known = await this.store.contact(instanceId, jid);
    await this.store.upsertContact(instanceId, {
      jid,
      lid: known?.lid ?? undefined,
      pushName: known?.pushName ?? undefined,
      fullName: known?.fullName ?? undefined,
      businessName: args.name,
    });
    session.learn({ contacts: [{ jid, ...(known?.lid ? { lid: known.lid } : {}), businessName: args.name }] });
    return { id: jid };
  }

  /**
   * A contact sets a new profile picture, optionally hidden from this account by their privacy settings. Only a
   * picture this account may see is announced (`chat_picture`), as on the real network.
   */
  async setProfilePicture(instanceId: string, args: CommandArgs<'sandbox.profilePicture'>): Promise<{ id: string; pictureId: string }> {
    const session = this.links.open(instanceId);
    const jid = this.user(args.id);
    const picture: StoredProfilePicture = { pictureId: pictureId(), hidden: args.hidden };
    await this.world.putRecord(instanceId, WORLD_KINDS.profilePicture, jid, picture);
    if (!args.hidden) {
      const owner = await this.people.party(instanceId, jid);
      session.deliver(normalise.chatPicture({ chatId: jid, sender: { ...owner, isMe: false }, pictureId: picture.pictureId }));
    }
    return { id: jid, pictureId: picture.pictureId };
  }

  private user(value: string): string {
    const jid = normaliseUserId(value);
    if (!jid || jidKind(jid) !== 'user') throw AppError.validation('id must be a user JID or an international number');
    return jid;
  }
}
