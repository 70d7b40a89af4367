import { Injectable } from '@nestjs/common';
import { AppError, jidKind, normaliseUserId, type SandboxUserSpec } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { pictureId } from './codes';

const KIND = 'network-user';
/** What a user may show only to some: their about text (`status`) and their picture (`profile`). */
const AUDIENCES = ['all', 'contacts', 'contact_blacklist', 'none'] as const;
type Audience = (typeof AUDIENCES)[number];

/** Someone on the simulated network, as the network itself knows them. */
export interface NetworkUser {
  jid: string;
  lid?: string;
  pushName?: string;
  about?: string;
  pictureId?: string;
  businessName?: string;
  verified: boolean;
  savedYou: boolean;
  privacy: { status: Audience; profile: Audience };
}

/**
 * Who is on the simulated network. A number is registered when this instance's world knows it: a user registered
 * through the sandbox, a saved contact, a member of one of its groups, or someone who sent it a message. Any other
 * number is not on the network, as an unused number would not be.
 */
@Injectable()
export class SandboxDirectory {
  constructor(
    private readonly store: SandboxRepository,
    private readonly world: SandboxWorldRepository,
  ) {}

  /** Registers (or updates) a user with their profile and privacy. */
  async register(instanceId: string, spec: SandboxUserSpec): Promise<{ id: string }> {
    const jid = normaliseUserId(spec.phone);
    if (!jid || jidKind(jid) !== 'user') throw AppError.validation('phone must be an international number');
    if (spec.lid !== undefined && jidKind(spec.lid) !== 'lid') throw AppError.validation('lid must be a JID ending in @lid');
    const audience = (field: 'status' | 'profile'): Audience => {
      const value = spec.privacy?.[field] ?? 'all';
      if (!(AUDIENCES as readonly string[]).includes(value))
        throw AppError.validation(`privacy.${field} must be one of ${AUDIENCES.join(', ')}`);
      return value as Audience;
    };
    const user: NetworkUser = {
      jid,
      ...(spec.lid ? { lid: spec.lid } : {}),
      ...(spec.pushName ? { pushName: spec.pushName } : {}),
      ...(spec.about !== undefined ? { about: spec.about } : {}),
      ...(spec.picture ? { pictureId: pictureId() } : {}),
      ...(spec.businessName ? { businessName: spec.businessName } : {}),
      verified: spec.verified ?? false,
      savedYou: spec.savedYou ?? false,
      privacy: { status: audience('status'), profile: audience('profile') },
    };
    await this.world.putRecord(instanceId, KIND, jid, user);
    return { id: jid };
  }

  /** The user behind a JID, or undefined when the number is not on the network. */
  async find(instanceId: string, jid: string): Promise<NetworkUser | undefined> {
    const [registered, contact] = await Promise.all([
      this.world.record<NetworkUser>(instanceId, KIND, jid),
      this.store.contact(instanceId, jid),
    ]);
    const known = registered ?? contact ?? (await this.seenInGroupsOrMessages(instanceId, jid));
    if (!known) return undefined;
    // What the address book learnt (a LID, a push name from a message) completes what the user registered.
    const base: NetworkUser = registered ?? { jid, verified: false, savedYou: false, privacy: { status: 'all', profile: 'all' } };
    return {
      ...base,
      ...(!base.lid && contact?.lid ? { lid: contact.lid } : {}),
      ...(contact?.pushName ? { pushName: contact.pushName } : {}),
      ...(!base.businessName && contact?.businessName ? { businessName: contact.businessName } : {}),
    };
  }

  private async seenInGroupsOrMessages(instanceId: string, jid: string): Promise<boolean> {
    if ((await this.store.groups(instanceId, { member: jid })).length > 0) return true;
    return (await this.store.messages(instanceId, 'inbound')).some((message) => message.senderJid === jid);
  }
}
