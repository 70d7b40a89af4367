import { inboundHarness, type Harness } from '../testing/inbound';
import { ANA, BOB, CAROL, identityOf } from '../testing/people';

describe('contacts.upsert, contacts.update and lid-mapping.update', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness({ knownPairs: { [BOB.lid]: BOB.pn } });
  });

  it('learns an address-book entry from the phone’s contact sync and reports it as a contact', async () => {
    // As processContactAction builds them: a PN-indexed contact with its LID, and a LID-only contact.
    const calls = await harness.deliver({
      'contacts.upsert': [
        { id: ANA.pn, name: 'Ana Silva', username: undefined, lid: ANA.lid, phoneNumber: ANA.pn },
        { id: CAROL.lid, name: 'Carol', username: undefined, lid: CAROL.lid, phoneNumber: undefined },
      ],
    });

    expect(calls).toEqual([
      { learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid }] } },
      {
        learned: {
          contacts: [
            { jid: ANA.pn, lid: ANA.lid, fullName: 'Ana Silva' },
            { jid: CAROL.lid, fullName: 'Carol' },
          ],
        },
      },
      { event: { eventType: 'contact', data: { contact: identityOf(ANA), fullName: 'Ana Silva', inPhoneAddressBook: true } } },
      {
        event: { eventType: 'contact', data: { contact: { id: CAROL.lid, lid: CAROL.lid }, fullName: 'Carol', inPhoneAddressBook: true } },
      },
    ]);
  });

  it('learns push names and verified business names, under the phone number Baileys knows for a LID', async () => {
    const calls = await harness.deliver({
      'contacts.update': [
        { id: BOB.lid, notify: 'Bobby', verifiedName: undefined },
        { id: ANA.pn, notify: 'Ana', verifiedName: 'Ana Store' },
        { id: ANA.pn, imgUrl: 'changed' },
      ],
    });

    expect(calls).toEqual([
      {
        learned: {
          contacts: [
            { jid: BOB.pn, lid: BOB.lid, pushName: 'Bobby' },
            { jid: ANA.pn, pushName: 'Ana', businessName: 'Ana Store' },
          ],
        },
      },
    ]);
  });

  it('learns a pair Baileys announces on its own', async () => {
    const calls = await harness.deliver({ 'lid-mapping.update': { lid: CAROL.lid, pn: CAROL.pn } });

    expect(calls).toEqual([{ learned: { contacts: [{ jid: CAROL.pn, lid: CAROL.lid }] } }]);
  });
});
