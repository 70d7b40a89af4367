import type { BaileysEventMap, GroupMetadata, GroupParticipant } from '@whiskeysockets/baileys';
import { ExpiringCache } from './expiring-cache';

/** Long enough to spare the network a query per group send; short enough to heal a change whose event was missed. */
const TTL_MS = 30 * 60_000;
const MAX_GROUPS = 2_000;

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

  /** Applies what one batch of socket events says about groups. */
  apply(events: Partial<BaileysEventMap>): void {
    for (const metadata of events['groups.upsert'] ?? []) this.set(metadata);
    for (const update of events['groups.update'] ?? []) this.update(update);
    const change = events['group-participants.update'];
    if (change) this.participantsChanged(change);
  }

  private update(update: Partial<GroupMetadata>): void {
    if (!update.id) return;
    const cached = this.get(update.id);
    // Updates from a full fetch (all groups the account is in) carry the participant list: whole metadata.
    if (cached) this.set({ ...cached, ...update, id: cached.id });
    else if (Array.isArray(update.participants) && update.subject !== undefined) this.set(update as GroupMetadata);
  }

  private participantsChanged(change: BaileysEventMap['group-participants.update']): void {
    const cached = this.get(change.id);
    if (!cached) return;
    const changed = (participant: GroupParticipant) => change.participants.some((other) => sameParticipant(participant, other));
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
