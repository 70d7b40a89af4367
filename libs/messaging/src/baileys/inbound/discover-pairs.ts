import type { BaileysEvents, WAMessageKey } from '../baileys-library';
import type { Identities } from './identities';

type Contact = BaileysEvents['contacts.upsert'][number];
type Participant = BaileysEvents['group-participants.update']['participants'][number];
type Group = Partial<BaileysEvents['groups.upsert'][number]>;

/**
 * Tells the batch's identities every LID/phone-number pair the batch carries, before anything is mapped, so an event
 * early in the batch already knows a pair that only a later one spells out.
 */
export function discoverPairs(events: Partial<BaileysEvents>, who: Identities): void {
  const history = events['messaging-history.set'];
  for (const { lid, pn } of history?.lidPnMappings ?? []) who.pair(lid, pn);
  const mapping = events['lid-mapping.update'];
  if (mapping) who.pair(mapping.lid, mapping.pn);

  for (const message of [...(history?.messages ?? []), ...(events['messages.upsert']?.messages ?? [])]) keyPairs(message.key, who);
  for (const { key, update } of events['messages.update'] ?? []) {
    keyPairs(key, who);
    if (update.key) keyPairs(update.key, who);
  }
  for (const { key, reaction } of events['messages.reaction'] ?? []) {
    keyPairs(key, who);
    if (reaction.key) keyPairs(reaction.key, who);
  }

  const contacts: Partial<Contact>[] = [
    ...(history?.contacts ?? []),
    ...(events['contacts.upsert'] ?? []),
    ...(events['contacts.update'] ?? []),
  ];
  for (const contact of contacts) {
    who.pair(contact.id, contact.lid ?? contact.phoneNumber);
    who.pair(contact.lid, contact.phoneNumber);
  }
  for (const chat of [...(history?.chats ?? []), ...(events['chats.upsert'] ?? [])]) {
    who.pair(chat.id, chat.lidJid ?? chat.pnJid);
    who.pair(chat.lidJid, chat.pnJid);
  }

  const participants = events['group-participants.update'];
  if (participants) {
    who.pair(participants.author, participants.authorPn);
    for (const participant of participants.participants) participantPairs(participant, who);
  }
  const request = events['group.join-request'];
  if (request) {
    who.pair(request.author, request.authorPn);
    who.pair(request.participant, request.participantPn);
  }
  const groups: Group[] = [...(events['groups.upsert'] ?? []), ...(events['groups.update'] ?? [])];
  for (const group of groups) {
    who.pair(group.author, group.authorPn);
    who.pair(group.owner, group.ownerPn);
    who.pair(group.subjectOwner, group.subjectOwnerPn);
    who.pair(group.descOwner, group.descOwnerPn);
    for (const participant of group.participants ?? []) participantPairs(participant, who);
  }
  for (const call of events.call ?? []) who.pair(call.from, call.callerPn);
}

function keyPairs(key: WAMessageKey | null | undefined, who: Identities): void {
  if (!key) return;
  who.pair(key.remoteJid, key.remoteJidAlt);
  who.pair(key.participant, key.participantAlt);
  // Earlier 7.0 release candidates carried the sender's other JID as `senderPn`/`senderLid`.
  const legacy = key as { senderPn?: string; senderLid?: string };
  who.pair(key.participant ?? key.remoteJid, legacy.senderPn ?? legacy.senderLid);
}

/** v7 participants are objects: `id` in either form, the other in `phoneNumber` or `lid`. */
function participantPairs(participant: Participant | string, who: Identities): void {
  if (typeof participant === 'string') return;
  who.pair(participant.id, participant.phoneNumber ?? participant.lid);
}
