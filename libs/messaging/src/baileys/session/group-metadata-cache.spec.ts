import type { GroupMetadata, GroupParticipant } from '@whiskeysockets/baileys';
import type { WAMessage } from '../baileys-library';
import { proto } from '../testing/rc14';
import { GroupMetadataCache } from './group-metadata-cache';

const JID = '120363041234567890@g.us';
const ANN: GroupParticipant = { id: '201234567890123@lid', phoneNumber: '447700900123@s.whatsapp.net', admin: 'superadmin' };
const BOB: GroupParticipant = { id: '201234567890999@lid', phoneNumber: '447700900999@s.whatsapp.net', admin: null };
const CAT: GroupParticipant = { id: '201234567890555@lid', phoneNumber: '447700900555@s.whatsapp.net', admin: null };

function metadata(participants: GroupParticipant[], extra: Partial<GroupMetadata> = {}): GroupMetadata {
  return {
    id: JID,
    subject: 'Team',
    owner: ANN.id,
    addressingMode: 'lid' as GroupMetadata['addressingMode'],
    participants,
    size: participants.length,
    ...extra,
  };
}

function participantsUpdate(action: 'add' | 'remove' | 'promote' | 'demote' | 'modify', participants: GroupParticipant[]) {
  return { 'group-participants.update': { id: JID, author: ANN.id, participants, action } };
}

describe('GroupMetadataCache', () => {
  it('keeps what groups.upsert brings, and merges groups.update into it', () => {
    const cache = new GroupMetadataCache();
    cache.apply({ 'groups.upsert': [metadata([ANN, BOB])] });
    cache.apply({ 'groups.update': [{ id: JID, subject: 'Team 2', announce: true, author: ANN.id }] });
    expect(cache.get(JID)).toEqual(metadata([ANN, BOB], { subject: 'Team 2', announce: true, author: ANN.id }));
  });

  it('takes a groups.update with a participant list (a full fetch) for a group it did not know; not a partial one', () => {
    const cache = new GroupMetadataCache();
    cache.apply({ 'groups.update': [{ id: 'other@g.us', subject: 'Other' }] });
    expect(cache.get('other@g.us')).toBeUndefined();
    cache.apply({ 'groups.update': [metadata([ANN])] });
    expect(cache.get(JID)).toEqual(metadata([ANN]));
  });

  it('follows participants: add (no duplicates), promote, demote, remove, matching LID or phone number', () => {
    const cache = new GroupMetadataCache();
    cache.set(metadata([ANN, BOB]));
    cache.apply(participantsUpdate('add', [{ id: CAT.id, phoneNumber: CAT.phoneNumber }, { id: BOB.phoneNumber as string }]));
    expect(cache.get(JID)).toEqual(metadata([ANN, { ...CAT, admin: null }, { id: BOB.phoneNumber as string, admin: null }]));
    cache.apply(participantsUpdate('promote', [{ id: CAT.phoneNumber as string }]));
    expect(cache.get(JID)?.participants.find((p) => p.id === CAT.id)?.admin).toBe('admin');
    cache.apply(participantsUpdate('demote', [{ id: CAT.id }]));
    cache.apply(participantsUpdate('remove', [{ id: BOB.phoneNumber as string }]));
    expect(cache.get(JID)).toEqual(metadata([ANN, { ...CAT, admin: null }]));
  });

  it('drops the group when a participant changed number, so the next send asks the network', () => {
    const cache = new GroupMetadataCache();
    cache.set(metadata([ANN, BOB]));
    cache.apply(participantsUpdate('modify', [BOB]));
    expect(cache.get(JID)).toBeUndefined();
  });

  it('ignores participant changes of groups it does not hold, and expires entries after 30 minutes', () => {
    let now = 0;
    const cache = new GroupMetadataCache(() => now);
    cache.apply(participantsUpdate('add', [BOB]));
    expect(cache.get(JID)).toBeUndefined();
    cache.set(metadata([ANN]));
    now = 30 * 60_000;
    expect(cache.get(JID)).toBeUndefined();
  });

  /**
   * rc14 reads `addressingMode` and `ephemeralDuration` from the cached metadata for every group send. A timer
   * change reaches the account only as the message rc14's `handleGroupNotification` makes of an `<ephemeral>`
   * notification, and a change of addressing only in the keys of the group's messages.
   */
  describe('what it cannot apply exactly', () => {
    /** A group message as rc14 upserts it. */
    const groupMessage = (key: Partial<WAMessage['key']>, message: WAMessage['message']): WAMessage => ({
      key: { remoteJid: JID, fromMe: false, id: '3A0000000000000000C1', participant: BOB.id, participantAlt: BOB.phoneNumber, ...key },
      message,
      messageTimestamp: 1_790_000_000,
    });
    const upsert = (...messages: WAMessage[]) => ({ 'messages.upsert': { type: 'notify' as const, messages } });

    it("forgets the group when its disappearing-messages timer changed, so the next send reads the network's", () => {
      const cache = new GroupMetadataCache();
      cache.set(metadata([ANN, BOB], { ephemeralDuration: 86_400 }));
      cache.apply(upsert(groupMessage({ addressingMode: 'lid' }, { conversation: 'hello' })));
      expect(cache.get(JID)).toBeDefined();
      const timer = proto.Message.fromObject({
        protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 604_800 },
      });
      cache.apply(upsert(groupMessage({ addressingMode: 'lid' }, timer)));
      expect(cache.get(JID)).toBeUndefined();
    });

    it('forgets the group when its messages come addressed otherwise than the entry says', () => {
      const cache = new GroupMetadataCache();
      cache.set(metadata([ANN, BOB], { addressingMode: 'pn' as GroupMetadata['addressingMode'] }));
      cache.apply(upsert(groupMessage({ addressingMode: 'lid' }, { conversation: 'hello' })));
      expect(cache.get(JID)).toBeUndefined();
    });

    it('forgets the group when a removed or promoted member is not found under any id the event gives', () => {
      const cache = new GroupMetadataCache();
      // Metadata of a phone-number-addressed group: members by phone number only.
      cache.set(
        metadata([
          { id: ANN.phoneNumber as string, admin: 'superadmin' },
          { id: BOB.phoneNumber as string, admin: null },
        ]),
      );
      // rc14's handleGroupNotification: `id` is the stanza's jid, `phoneNumber` only when the stanza carries it.
      cache.apply(participantsUpdate('remove', [{ id: BOB.id, phoneNumber: undefined, lid: undefined, admin: null }]));
      expect(cache.get(JID)).toBeUndefined();
    });

    it('forgets the group on a groups.update with fields it does not merge', () => {
      const cache = new GroupMetadataCache();
      cache.set(metadata([ANN, BOB]));
      cache.apply({ 'groups.update': [{ id: JID, ephemeralDuration: 604_800, author: ANN.id }] });
      expect(cache.get(JID)).toBeUndefined();
    });
  });
});
