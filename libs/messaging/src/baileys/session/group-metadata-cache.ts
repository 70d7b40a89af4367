import type { BaileysEventMap, GroupMetadata, GroupParticipant, WAMessage } from '@whiskeysockets/baileys';
import { ExpiringCache } from './expiring-cache';

/** Long enough to spare the network a query per group send; short enough to heal a change whose event was missed. */
const TTL_MS = 30 * 60_000;
const MAX_GROUPS = 2_000;

/**
 * The fields a group notification puts in a `groups.update` (rc14 `Utils/process-message.js`), each replacing one
 * metadata field, and who made the change. An update with anything else is not understood well enough to merge.
 */
const MERGEABLE = new Set([
  'id',
  'subject',
  'desc',
  'announce',
  'restrict',
  'memberAddMode',
  'joinApprovalMode',
  'inviteCode',
  'author',
  'authorPn',
  'authorUsername',
]);

/** `proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING`: a chat's disappearing-messages timer changed. */
const EPHEMERAL_SETTING = 3;

/**
 * An instance's group metadata for Baileys' `cachedGroupMetadata`: a group send fans out to the participants listed
 * here, so the list must follow every change (a member missing from it could not decrypt). Filled from the metadata
 * the network answers and kept current from the group events; it outlives the instance's sockets.
 */
export class GroupMetadataCache {
  private readonly groups: ExpiringCache;

  constructor(now: () => number = Date.now) {
    this.groups = new ExpiringCache(TTL_MS, MAX_GROUPS, now);
  }

  get(jid: string): GroupMetadata | undefined {
    return this.groups.get<GroupMetadata>(jid);
  }

  set(metadata: GroupMetadata): void {
    this.groups.set(metadata.id, metadata);
  }

  forget(jid: string): void {
    this.groups.del(jid);
  }

  clear(): void {
    this.groups.flushAll();
  }

  /**
   * Applies what one batch of socket events says about groups, and forgets a group whenever the batch says something
   * the entry cannot take in exactly: Baileys reads `addressingMode` and `ephemeralDuration` from here for every send
   * to the group, so the next send had better ask the network than use a stale value.
   */
  apply(events: Partial<BaileysEventMap>): void {
    for (const metadata of events['groups.upsert'] ?? []) this.set(metadata);
    for (const update of events['groups.update'] ?? []) this.update(update);
    const change = events['group-participants.update'];
    if (change) this.participantsChanged(change);
    for (const message of events['messages.upsert']?.messages ?? []) this.messageSeen(message);
  }

  private update(update: Partial<GroupMetadata>): void {
    if (!update.id) return;
    // Updates from a full fetch (all groups the account is in) carry the participant list: whole metadata.
    if (Array.isArray(update.participants) && update.subject !== undefined) {
      this.set(update as GroupMetadata);
      return;
    }
    const cached = this.get(update.id);
    if (!cached) return;
    if (Object.keys(update).every((field) => MERGEABLE.has(field))) this.set({ ...cached, ...update, id: cached.id });
    else this.forget(update.id);
  }

  /**
   * A group's timer change reaches the account only as a message (`protocolMessage` EPHEMERAL_SETTING), and a group
   * that moved between phone-number and LID addressing only shows it in its messages' keys.
   */
  private messageSeen(message: WAMessage): void {
    const jid = message.key.remoteJid;
    if (!jid?.endsWith('@g.us')) return;
    const cached = this.get(jid);
    if (!cached) return;
    const timerChanged = Number(message.message?.protocolMessage?.type) === EPHEMERAL_SETTING;
    // Both are 'pn' or 'lid'; the key types it as a string, the metadata as Baileys' enum of the same values.
    const addressing = message.key.addressingMode;
    const readdressed = !!addressing && !!cached.addressingMode && addressing !== String(cached.addressingMode);
    if (timerChanged || readdressed) this.forget(jid);
  }

  private participantsChanged(change: BaileysEventMap['group-participants.update']): void {
    const cached = this.get(change.id);
    if (!cached) return;
    const changed = (participant: GroupParticipant) => change.participants.some((other) => sameParticipant(participant, other));
    // A member the entry cannot find under any of the ids the event gives (the entry knows them by phone number, the
    // event names them by LID alone) would stay listed or keep the wrong role: the next send asks the network.
    const unmatched = change.participants.some((other) => !cached.participants.some((participant) => sameParticipant(participant, other)));
    if (change.action !== 'add' && unmatched) {
      this.forget(change.id);
      return;
    }
    let participants: GroupParticipant[];
    switch (change.action) {
      case 'add':
        participants = [
          ...cached.participants.filter((participant) => !changed(participant)),
          ...change.participants.map((participant) => ({ ...participant, admin: participant.admin ?? null })),
        ];
        break;
      case 'remove':
        participants = cached.participants.filter((participant) => !changed(participant));
        break;
      case 'promote':
      case 'demote': {
        const admin = change.action === 'promote' ? ('admin' as const) : null;
        participants = cached.participants.map((participant) => (changed(participant) ? { ...participant, admin } : participant));
        break;
      }
      case 'modify':
        // A participant changed number: which entry became which is not certain, so the next send asks the network.
        this.forget(change.id);
        return;
    }
    this.set({ ...cached, participants, size: participants.length });
  }
}

/** The same person, whichever of their identities (LID or phone number) each side names. */
function sameParticipant(a: GroupParticipant, b: GroupParticipant): boolean {
  const ids = new Set([a.id, a.lid, a.phoneNumber].filter(Boolean));
  return [b.id, b.lid, b.phoneNumber].some((id) => id !== undefined && ids.has(id));
}
