import { AppError } from '@app/contracts';
import { signalRepositoryWith } from '../testing/rc14';
import { SELF, SELF_LID, buildOperations, fakeContext, iqError } from '../testing/operations';

const ALICE = '447700900200@s.whatsapp.net';
const ALICE_LID = '200000000000002@lid';
const PICTURE = 'https://pps.whatsapp.net/v/t61.24694-24/111_222_n.jpg?ccb=11-4&oe=1';
const OWN_PICTURE = 'https://pps.whatsapp.net/v/t61.24694-24/333_444_n.jpg?ccb=11-4&oe=1';

/** `fetchStatus` answers a USync list: one entry per user with the status protocol's `{ status, setAt }`. */
const statusAnswer = (id: string, status: string | null) => [{ id, status: { status, setAt: new Date(1_790_000_000_000) } }];

const PRIVACY = {
  readreceipts: 'all',
  profile: 'contacts',
  status: 'contacts',
  online: 'match_last_seen',
  last: 'contacts',
  groupadd: 'contact_blacklist',
  calladd: 'known',
  messages: 'all',
  stickers: 'contacts',
};

describe('Baileys user operations', () => {
  const operations = buildOperations();

  it("answers the account's own profile: device, name, about and picture", async () => {
    const fetchStatus = jest.fn().mockResolvedValue(statusAnswer(SELF, 'Baking'));
    const profilePictureUrl = jest.fn().mockResolvedValue(OWN_PICTURE);
    await expect(operations.perform(fakeContext({ socket: { fetchStatus, profilePictureUrl } }), 'users.ownProfile', {})).resolves.toEqual({
      jid: SELF,
      device: 7,
      pushName: 'Gateway',
      status: 'Baking',
      pictureId: '333_444_n',
    });
    expect(fetchStatus).toHaveBeenCalledWith(SELF);
    expect(profilePictureUrl).toHaveBeenCalledWith(SELF, 'image');
  });

  it('leaves out an own profile picture and about text that are not set', async () => {
    const fetchStatus = jest.fn().mockResolvedValue(statusAnswer(SELF, null));
    const profilePictureUrl = jest.fn().mockRejectedValue(iqError(404, 'item-not-found'));
    await expect(operations.perform(fakeContext({ socket: { fetchStatus, profilePictureUrl } }), 'users.ownProfile', {})).resolves.toEqual({
      jid: SELF,
      device: 7,
      pushName: 'Gateway',
    });
  });

  it('updates name, about and picture in that order', async () => {
    const calls: string[] = [];
    const socket = {
      updateProfileName: jest.fn(() => Promise.resolve(void calls.push('name'))),
      updateProfileStatus: jest.fn(() => Promise.resolve(void calls.push('status'))),
      updateProfilePicture: jest.fn(() => Promise.resolve(void calls.push('picture'))),
    };
    await operations.perform(fakeContext({ socket }), 'users.updateProfile', {
      name: 'Bakery',
      status: 'Open 9-5',
      picture: Buffer.from('jpeg').toString('base64'),
    });
    expect(calls).toEqual(['name', 'status', 'picture']);
    expect(socket.updateProfileName).toHaveBeenCalledWith('Bakery');
    expect(socket.updateProfileStatus).toHaveBeenCalledWith('Open 9-5');
    expect(socket.updateProfilePicture).toHaveBeenCalledWith(SELF, Buffer.from('jpeg'));
  });

  it('sets the presence, and says so when the account has no name for Baileys to send it with', async () => {
    const sendPresenceUpdate = jest.fn().mockResolvedValue(undefined);
    await operations.perform(fakeContext({ socket: { sendPresenceUpdate } }), 'users.setPresence', { presence: 'unavailable' });
    expect(sendPresenceUpdate).toHaveBeenCalledWith('unavailable');
    const nameless = fakeContext({ socket: { sendPresenceUpdate, authState: { creds: { me: { id: SELF } } } } });
    await expect(operations.perform(nameless, 'users.setPresence', { presence: 'available' })).rejects.toMatchObject({
      code: 'validation',
    });
    expect(sendPresenceUpdate).toHaveBeenCalledTimes(1);
  });

  it('reads the privacy settings fresh from the network', async () => {
    const fetchPrivacySettings = jest.fn().mockResolvedValue(PRIVACY);
    await expect(operations.perform(fakeContext({ socket: { fetchPrivacySettings } }), 'users.privacy', {})).resolves.toEqual({
      groupadd: 'contact_blacklist',
      last: 'contacts',
      status: 'contacts',
      profile: 'contacts',
      readreceipts: 'all',
      online: 'match_last_seen',
      calladd: 'known',
    });
    expect(fetchPrivacySettings).toHaveBeenCalledWith(true);
  });

  it.each([
    ['groupadd', 'contacts', 'updateGroupsAddPrivacy'],
    ['last', 'none', 'updateLastSeenPrivacy'],
    ['status', 'contact_blacklist', 'updateStatusPrivacy'],
    ['profile', 'all', 'updateProfilePicturePrivacy'],
    ['readreceipts', 'none', 'updateReadReceiptsPrivacy'],
    ['online', 'match_last_seen', 'updateOnlinePrivacy'],
    ['calladd', 'known', 'updateCallPrivacy'],
  ] as const)('sets %s with %s through %s and answers the settings after', async (setting, value, call) => {
    const update = jest.fn().mockResolvedValue(undefined);
    const fetchPrivacySettings = jest.fn().mockResolvedValue({ ...PRIVACY, [setting]: value });
    const settings = await operations.perform(fakeContext({ socket: { [call]: update, fetchPrivacySettings } }), 'users.setPrivacy', {
      setting,
      value,
    });
    expect(update).toHaveBeenCalledWith(value);
    expect(settings[setting]).toBe(value);
  });

  it('checks numbers in one query and matches the answers by number', async () => {
    const onWhatsApp = jest.fn().mockResolvedValue([
      { jid: '447700900300@s.whatsapp.net', exists: true },
      { jid: ALICE, exists: true },
    ]);
    await expect(
      operations.perform(fakeContext({ socket: { onWhatsApp } }), 'users.check', {
        phones: ['447700900200', '+447700900300', '447700900999'],
      }),
    ).resolves.toEqual({
      results: [
        { phone: '447700900200', exists: true, jid: ALICE },
        { phone: '+447700900300', exists: true, jid: '447700900300@s.whatsapp.net' },
        { phone: '447700900999', exists: false },
      ],
    });
    expect(onWhatsApp).toHaveBeenCalledWith(ALICE, '447700900300@s.whatsapp.net', '447700900999@s.whatsapp.net');
  });

  it('refuses something that is not a number', async () => {
    await expect(operations.perform(fakeContext(), 'users.check', { phones: ['hello'] })).rejects.toEqual(
      AppError.validation('phone hello is not an international number'),
    );
  });

  it("answers another user's profile as far as it is shown, with names from the store", async () => {
    const socket = {
      onWhatsApp: jest.fn().mockResolvedValue([{ jid: ALICE, exists: true }]),
      fetchStatus: jest.fn().mockResolvedValue(statusAnswer(ALICE, 'At the oven')),
      profilePictureUrl: jest.fn().mockResolvedValue(PICTURE),
      signalRepository: { lidMapping: { getLIDForPN: jest.fn().mockResolvedValue(ALICE_LID), getPNForLID: jest.fn() } },
    };
    const find = jest.fn().mockResolvedValue({ jid: ALICE, pushName: 'Alice', businessName: 'Alice Bakes' });
    await expect(
      buildOperations({ contacts: { find } }).perform(fakeContext({ socket }), 'users.profile', { jid: ALICE }),
    ).resolves.toEqual({
      jid: ALICE,
      lid: ALICE_LID,
      pushName: 'Alice',
      status: 'At the oven',
      pictureId: '111_222_n',
      pictureUrl: PICTURE,
      businessName: 'Alice Bakes',
      isVerified: false,
    });
    expect(socket.onWhatsApp).toHaveBeenCalledWith(ALICE);
    expect(find).toHaveBeenCalledWith('inst-1', ALICE);
  });

  it('leaves out what a user hides: an empty about text and a refused picture', async () => {
    const socket = {
      onWhatsApp: jest.fn().mockResolvedValue([{ jid: ALICE, exists: true }]),
      fetchStatus: jest.fn().mockResolvedValue(statusAnswer(ALICE, '')),
      profilePictureUrl: jest.fn().mockRejectedValue(iqError(401, 'not-authorized')),
    };
    await expect(operations.perform(fakeContext({ socket }), 'users.profile', { jid: ALICE })).resolves.toEqual({
      jid: ALICE,
      isVerified: false,
    });
  });

  it('names a LID user by phone number when Baileys knows it, with the names the store keeps for that number', async () => {
    const socket = {
      fetchStatus: jest.fn().mockResolvedValue(undefined),
      profilePictureUrl: jest.fn().mockResolvedValue(undefined),
      // rc14's own mapping store, which answers the phone number with a device: `447700900200:0@s.whatsapp.net`.
      ...signalRepositoryWith([{ lid: ALICE_LID, pn: ALICE }]),
    };
    const find = (...[, jid]: unknown[]) =>
      Promise.resolve(jid === ALICE ? { jid: ALICE, pushName: 'Alice', businessName: 'Alice Bakes' } : null);
    await expect(
      buildOperations({ contacts: { find } }).perform(fakeContext({ socket }), 'users.profile', { jid: ALICE_LID }),
    ).resolves.toEqual({
      jid: ALICE,
      lid: ALICE_LID,
      pushName: 'Alice',
      businessName: 'Alice Bakes',
      isVerified: false,
    });
    expect(socket.fetchStatus).toHaveBeenCalledWith(ALICE_LID);
  });

  it('is not_found for a number not on the network', async () => {
    const onWhatsApp = jest.fn().mockResolvedValue([]);
    await expect(operations.perform(fakeContext({ socket: { onWhatsApp } }), 'users.profile', { jid: ALICE })).rejects.toEqual(
      new AppError('not_found'),
    );
  });

  it('answers this account by its own profile', async () => {
    const fetchStatus = jest.fn().mockResolvedValue(statusAnswer(SELF, 'Baking'));
    const profilePictureUrl = jest.fn().mockResolvedValue(undefined);
    const context = fakeContext({ socket: { fetchStatus, profilePictureUrl } });
    const own = { jid: SELF, pushName: 'Gateway', status: 'Baking', isVerified: false };
    await expect(operations.perform(context, 'users.profile', { jid: SELF })).resolves.toEqual(own);
    await expect(operations.perform(context, 'users.profile', { jid: SELF_LID })).resolves.toEqual(own);
  });
});
