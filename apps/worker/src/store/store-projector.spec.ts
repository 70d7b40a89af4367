import type { ChatStoreRepository, ContactStoreRepository } from '@app/database';
import { normalise } from '@app/messaging';
import { StoreProjector } from './store-projector';

function harness() {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return Promise.resolve();
    };
  const chats = {
    touch: record('touch'),
    applySettings: record('applySettings'),
    setLid: record('setLid'),
    forgetAll: record('forgetAll'),
  } as unknown as ChatStoreRepository;
  const contacts = { upsert: record('upsert') } as unknown as ContactStoreRepository;
  return { projector: new StoreProjector(chats, contacts), calls };
}

const ANN = '447700900123@s.whatsapp.net';

describe('StoreProjector', () => {
  it('touches the chat of a message at the message time and records the LID of the person', async () => {
    const { projector, calls } = harness();
    const message = normalise.message({
      id: '3EB0AAAAAAAAAAAAAAAAAA',
      chatId: ANN,
      sender: { jid: ANN, lid: '111@lid', isMe: false },
      time: new Date('2026-11-22T09:00:00.000Z'),
      content: { type: 'text', text: 'hi' },
    });
    await projector.apply('ins_1', message);
    expect(calls).toEqual([
      ['touch', 'ins_1', ANN, false, new Date('2026-11-22T09:00:00.000Z')],
      ['setLid', 'ins_1', ANN, '111@lid'],
    ]);
  });

  it('turns chat settings into a patch: mute with its end, unmute clearing it', async () => {
    const { projector, calls } = harness();
    const until = new Date('2026-11-22T11:00:00.000Z');
    await projector.apply('ins_1', normalise.chatSetting({ chatId: ANN, setting: { type: 'mute', muted: true, until } }));
    await projector.apply('ins_1', normalise.chatSetting({ chatId: ANN, setting: { type: 'mute', muted: false } }));
    await projector.apply(
      'ins_1',
      normalise.chatSetting({ chatId: '120363000000000001@g.us', setting: { type: 'archive', archived: true } }),
    );
    expect(calls).toEqual([
      ['applySettings', 'ins_1', ANN, false, { muted: true, muteEndTime: until }],
      ['applySettings', 'ins_1', ANN, false, { muted: false, muteEndTime: null }],
      ['applySettings', 'ins_1', '120363000000000001@g.us', true, { archived: true }],
    ]);
  });

  it('keeps address-book names only while the person is in the address book', async () => {
    const { projector, calls } = harness();
    await projector.apply('ins_1', normalise.contact({ contact: { jid: ANN }, fullName: 'Ann Example', inPhoneAddressBook: true }));
    await projector.apply('ins_1', normalise.contact({ contact: { jid: ANN }, fullName: '', inPhoneAddressBook: false }));
    expect(calls).toEqual([
      ['upsert', 'ins_1', ANN, { inAddressBook: true, fullName: 'Ann Example' }],
      ['upsert', 'ins_1', ANN, { inAddressBook: false, fullName: null }],
    ]);
  });

  it('forgets the whole store when the account logs out', async () => {
    const { projector, calls } = harness();
    await projector.apply('ins_1', normalise.loggedOut({ reason: 'user_logged_out' }));
    expect(calls).toEqual([['forgetAll', 'ins_1']]);
  });

  it('does not throw when the store fails: the event must still be recorded', async () => {
    const failing = new StoreProjector(
      { touch: () => Promise.reject(new Error('db down')) } as unknown as ChatStoreRepository,
      {} as ContactStoreRepository,
    );
    const message = normalise.message({
      id: '3EB0AAAAAAAAAAAAAAAAAA',
      chatId: ANN,
      sender: { jid: ANN, isMe: false },
      time: new Date(),
      content: { type: 'text', text: 'hi' },
    });
    await expect(failing.apply('ins_1', message)).resolves.toBeUndefined();
  });
});

describe('StoreProjector facts', () => {
  it('stores a chat the network lists with its activity, settings and LID', async () => {
    const { projector, calls } = harness();
    await projector.learn('ins_1', {
      chats: [
        {
          jid: ANN,
          lid: '111@lid',
          isGroup: false,
          archived: true,
          muted: true,
          muteEndTime: '2026-11-22T11:00:00.000Z',
          lastActivity: '2026-11-22T09:00:00.000Z',
        },
        { jid: '120363000000000001@g.us', isGroup: true },
      ],
    });
    expect(calls).toEqual([
      ['touch', 'ins_1', ANN, false, new Date('2026-11-22T09:00:00.000Z')],
      ['applySettings', 'ins_1', ANN, false, { archived: true, muted: true, muteEndTime: new Date('2026-11-22T11:00:00.000Z') }],
      ['setLid', 'ins_1', ANN, '111@lid'],
      ['touch', 'ins_1', '120363000000000001@g.us', true, null],
    ]);
  });
});
