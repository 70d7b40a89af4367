import { normalise, type Actor, type GroupInput, type Party } from '../../events/normalise';
import type { BaileysEvents } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { fromSeconds } from './timestamps';

type ParticipantsUpdate = BaileysEvents['group-participants.update'];
type Member = ParticipantsUpdate['participants'][number];

const MEMBER_CHANGES = { add: 'join', remove: 'leave', promote: 'promote', demote: 'demote' } as const;

/**
 * `group-participants.update` (v7: participants are objects `{id, phoneNumber?, lid?, admin?}`). `modify` (a member
 * changed number) is no group event: it only teaches the new pair. A join where the only member joining is the one
 * acting is a join by invite link (`joinReason: invite`); an admin adding people gives no reason. The time is when the
 * change reached the instance: rc14 keeps the notification's `t` only on the stub message it upserts apart from this.
 */
export function mapParticipants(batch: InboundBatch, update: ParticipantsUpdate): void {
  if (update.action === 'modify') return;
  const change = MEMBER_CHANGES[update.action];
  const members = update.participants.map((member) => memberParty(batch, member)).filter((member): member is Party => !!member);
  if (!change || members.length === 0) return;
  const by = actorOf(batch, update.author, update.authorPn);
  const selfJoined = change === 'join' && by !== undefined && members.every((member) => member.jid === by.jid);
  batch.event(
    normalise.group({ groupId: update.id, by, at: new Date(), joinReason: selfJoined ? 'invite' : undefined, [change]: members }),
  );
}

/**
 * `groups.update`: subject → name, desc → description, announce, restrict → locked, joinApprovalMode → membership
 * approval; one event per entry. An entry with `participants` is a full metadata read (`groupFetchAllParticipating`),
 * not a change, and is no event. The time is when the change reached the instance, as for member changes.
 */
export function mapGroupChanges(batch: InboundBatch, changes: BaileysEvents['groups.update']): void {
  for (const change of changes) {
    if (!change.id || change.participants) continue;
    const changed: Partial<GroupInput> = {};
    if (typeof change.subject === 'string') changed.name = change.subject;
    if ('desc' in change) changed.topic = change.desc ?? '';
    if (typeof change.announce === 'boolean') changed.announce = change.announce;
    if (typeof change.restrict === 'boolean') changed.locked = change.restrict;
    if (typeof change.joinApprovalMode === 'boolean') changed.membershipApprovalRequired = change.joinApprovalMode;
    if (Object.keys(changed).length === 0) continue;
    batch.event(normalise.group({ groupId: change.id, by: actorOf(batch, change.author, change.authorPn), at: new Date(), ...changed }));
  }
}

/** `groups.upsert`: a group (or community) was created with this account in it. */
export function mapNewGroups(batch: InboundBatch, groups: BaileysEvents['groups.upsert']): void {
  for (const group of groups) {
    batch.event(
      normalise.group({
        groupId: group.id,
        by: actorOf(batch, group.author ?? group.owner, group.authorPn ?? group.ownerPn),
        at: fromSeconds(group.creation),
        groupType: 'new',
        isCommunity: group.isCommunity || undefined,
        communityId: group.linkedParent || undefined,
        isAnnouncementGroup: group.linkedParent ? group.isCommunityAnnounce === true : undefined,
        join: [batch.who.self()],
      }),
    );
  }
}

/**
 * `group.join-request`: someone asked to join, or withdrew, or was refused. The contract has no event for requests
 * (admins list them with `groups.requests`); only the pair of JIDs it carries is learned, as for every event.
 */
export function mapJoinRequest(batch: InboundBatch, request: BaileysEvents['group.join-request']): void {
  batch.logger.debug(`${batch.context.instanceId}: join request ${request.action} in ${request.id} not reported`);
}

function memberParty(batch: InboundBatch, member: Member | string): Party | undefined {
  const jid = typeof member === 'string' ? member : member.id;
  return jid ? batch.who.party(jid) : undefined;
}

/**
 * The author of a change. rc14 leaves `authorPn` out of group events (see GroupActors): the other identity the
 * notification gave is paired here, so a member known only by LID is still named by phone number.
 */
function actorOf(batch: InboundBatch, jid: string | undefined, pn: string | undefined): Actor | undefined {
  const who = jid || pn;
  if (!who) return undefined;
  const other = pn ?? batch.context.groupActors?.otherOf(who);
  if (other) batch.who.pair(who, other);
  return batch.who.actor(who);
}
