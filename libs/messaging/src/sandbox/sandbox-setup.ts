import { Injectable } from '@nestjs/common';
import { AppError, jidKind, normaliseUserId, type SandboxContactSpec, type SandboxGroupSpec } from '@app/contracts';
import { SandboxRepository, type SandboxGroupInput } from '@app/database';
import { normalise } from '../events/normalise';
import { groupJid, inviteCode } from './codes';
import { SandboxLinks } from './sandbox-links';
import { SandboxPeople } from './sandbox-people';

/** What a test arranges on the network: contacts in the phone's address book, groups and communities the account is in. */
@Injectable()
export class SandboxSetup {
  constructor(
    private readonly store: SandboxRepository,
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
  ) {}

  /** The phone saves a contact; one with a full name is in its address book. */
  async addContact(instanceId: string, spec: SandboxContactSpec): Promise<{ id: string }> {
    const jid = normaliseUserId(spec.id);
    if (!jid || jidKind(jid) !== 'user') throw AppError.validation('id must be a user JID or an international number');
    if (spec.lid !== undefined && jidKind(spec.lid) !== 'lid') throw AppError.validation('lid must be a JID ending in @lid');
    await this.store.upsertContact(instanceId, { ...spec, jid });
    this.links.find(instanceId)?.learn({
      contacts: [{ jid, ...(spec.lid ? { lid: spec.lid } : {}), ...(spec.businessName ? { businessName: spec.businessName } : {}) }],
    });
    this.links.find(instanceId)?.deliver(
      normalise.contact({
        contact: { jid, lid: spec.lid },
        fullName: spec.fullName ?? '',
        inPhoneAddressBook: spec.fullName !== undefined,
      }),
    );
    return { id: jid };
  }

  /** Someone creates a group (or community) with this instance in it: the first admin, or this instance without admins. */
  async createGroup(instanceId: string, spec: SandboxGroupSpec): Promise<{ id: string }> {
    const self = await this.people.selfJid(instanceId);
    const participants = this.people.users(spec.participants, 'participants');
    const admins = this.people.users(spec.admins, 'admins');
    const outsider = admins.find((admin) => !participants.includes(admin));
    if (outsider) throw AppError.validation(`admins must be participants: ${outsider} is not`);
    type Member = SandboxGroupInput['participants'][number];
    const member = (jid: string, isAdmin: boolean): Member => ({ jid, role: isAdmin ? 'admin' : 'member' });
    const members = [
      ...participants.filter((jid) => jid !== self).map((jid) => member(jid, admins.includes(jid))),
      member(self, spec.selfIsAdmin),
    ];
    const group = (kind: SandboxGroupInput['kind'], name: string, parentJid: string | null): SandboxGroupInput => ({
      jid: groupJid(),
      name,
      kind,
      parentJid,
      inviteCode: inviteCode(),
      participants: members,
    });
    const created = spec.community
      ? (() => {
          const community = group('community', spec.name, null);
          return [community, group('announcement', spec.name, community.jid), group('subgroup', 'General', community.jid)];
        })()
      : [group('group', spec.name, null)];
    await this.store.createGroups(instanceId, created);

    const creatorJid = admins.find((jid) => jid !== self) ?? self;
    const by = await this.people.actor(instanceId, creatorJid, self);
    const at = new Date();
    const session = this.links.find(instanceId);
    for (const made of created) {
      session?.deliver(
        normalise.group({
          groupId: made.jid,
          by,
          at,
          groupType: 'new',
          isCommunity: made.kind === 'community' ? true : undefined,
          communityId: made.parentJid ?? undefined,
          isAnnouncementGroup: made.parentJid ? made.kind === 'announcement' : undefined,
          join: [{ jid: self }],
        }),
      );
    }
    return { id: created[0].jid };
  }
}
