import { AppError } from '@app/contracts';
import { signalRepositoryWith } from '../testing/rc14';
import { boom } from '../testing/kit';
import { SELF, buildOperations, fakeContext } from '../testing/operations';

const ALICE = '447700900200@s.whatsapp.net';
const ALICE_LID = '200000000000002@lid';
const BOB_LID = '300000000000003@lid';

const contact = (jid: string, fields: Record<string, unknown>) => ({
  jid,
  lid: null,
  pushName: null,
  fullName: null,
  firstName: null,
  businessName: null,
  inAddressBook: false,
  ...fields,
});

describe('Baileys contact operations', () => {
  it('saves an address-book entry as a contact action, with the LID Baileys knows', async () => {
    const addOrEditContact = jest.fn().mockResolvedValue(undefined);
    const getLIDForPN = jest.fn().mockResolvedValue(ALICE_LID);
    const context = fakeContext({
      socket: { addOrEditContact, signalRepository: { lidMapping: { getLIDForPN, getPNForLID: jest.fn() } } },
    });
    await expect(
      buildOperations().perform(context, 'contacts.save', { jid: ALICE, fullName: 'Alice Baker', firstName: 'Alice' }),
    ).resolves.toEqual({});
    expect(getLIDForPN).toHaveBeenCalledWith(ALICE);
    expect(addOrEditContact).toHaveBeenCalledWith(ALICE, {
      fullName: 'Alice Baker',
      firstName: 'Alice',
      lidJid: ALICE_LID,
      saveOnPrimaryAddressbook: true,
    });
  });

  it('saves without a first name or a known LID', async () => {
    const addOrEditContact = jest.fn().mockResolvedValue(undefined);
    await buildOperations().perform(fakeContext({ socket: { addOrEditContact } }), 'contacts.save', { jid: ALICE, fullName: 'Alice' });
    expect(addOrEditContact).toHaveBeenCalledWith(ALICE, { fullName: 'Alice', saveOnPrimaryAddressbook: true });
  });

  it('answers the address book as app-state sync left it in the store', async () => {
    const list = jest
      .fn()
      .mockResolvedValue([
        contact(ALICE, { lid: ALICE_LID, fullName: 'Alice Baker', firstName: 'Alice', inAddressBook: true }),
        contact('447700900300@s.whatsapp.net', { pushName: 'Bob' }),
        contact('447700900400@s.whatsapp.net', { fullName: 'Carol', inAddressBook: true }),
      ]);
    await expect(buildOperations({ contacts: { list } }).perform(fakeContext(), 'contacts.sync', {})).resolves.toEqual({
      contacts: [
        { jid: ALICE, lid: ALICE_LID, fullName: 'Alice Baker', firstName: 'Alice' },
        { jid: '447700900400@s.whatsapp.net', fullName: 'Carol' },
      ],
    });
  });

  it('lists the blocklist by phone number where Baileys knows it', async () => {
    const fetchBlocklist = jest.fn().mockResolvedValue([ALICE_LID, BOB_LID, undefined, '447700900500@s.whatsapp.net']);
    // rc14's own mapping store: it answers `447700900200:0@s.whatsapp.net`, which the blocklist must not repeat.
    const context = fakeContext({ socket: { fetchBlocklist, ...signalRepositoryWith([{ lid: ALICE_LID, pn: ALICE }]) } });
    await expect(buildOperations().perform(context, 'contacts.blocklist', {})).resolves.toEqual({
      // A LID without a known phone number stays the person's name; the entry Baileys could not read is dropped.
      blocked: [{ jid: ALICE, lid: ALICE_LID }, { jid: BOB_LID }, { jid: '447700900500@s.whatsapp.net' }],
    });
  });

  it('blocks and unblocks', async () => {
    const updateBlockStatus = jest.fn().mockResolvedValue(undefined);
    const context = fakeContext({ socket: { updateBlockStatus } });
    await buildOperations().perform(context, 'contacts.block', { jid: ALICE, blocked: true });
    await buildOperations().perform(context, 'contacts.block', { jid: ALICE_LID, blocked: false });
    expect(updateBlockStatus.mock.calls).toEqual([
      [ALICE, 'block'],
      [ALICE_LID, 'unblock'],
    ]);
  });

  it('refuses to block this account, and reports an unresolvable person as a validation error', async () => {
    const updateBlockStatus = jest.fn().mockRejectedValue(boom(`Unable to resolve LID for PN JID: ${ALICE}`, { statusCode: 400 }));
    const context = fakeContext({ socket: { updateBlockStatus } });
    await expect(buildOperations().perform(context, 'contacts.block', { jid: SELF, blocked: true })).rejects.toEqual(
      AppError.validation('id must not be this account itself'),
    );
    await expect(buildOperations().perform(context, 'contacts.block', { jid: ALICE, blocked: true })).rejects.toMatchObject({
      code: 'validation',
      detail: `validation error: the network refused the request (Unable to resolve LID for PN JID: ${ALICE})`,
    });
    expect(updateBlockStatus).toHaveBeenCalledTimes(1);
  });
});
