import type { ContactFact } from '@app/contracts';
import { normalise, type Party } from '../../events/normalise';
import type { BaileysEvents } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';

type Contact = Partial<BaileysEvents['contacts.upsert'][number]>;

/** The LID/phone-number pairs the batch carried (message keys, participants, contacts, mappings), before any event. */
export function learnPairs(batch: InboundBatch): void {
  batch.learnContacts(batch.who.carriedPairs().map(({ lid, pn }) => ({ jid: pn, lid })));
}

/**
 * `contacts.upsert` and `contacts.update`: `notify` is the push name, `verifiedName` the business name, and `name` the
 * name in the phone's address book (the phone's contact sync), which is also a `contact` event, as when the phone
 * saves a contact. Groups and channels are not people.
 */
export function mapContacts(batch: InboundBatch, contacts: Contact[]): void {
  const saved: { party: Party; fullName: string }[] = [];
  const facts: ContactFact[] = [];
  for (const contact of contacts) {
    const party = personOf(batch, contact);
    if (!party) continue;
    facts.push(contactFact(party, contact));
    if (contact.name) saved.push({ party, fullName: contact.name });
  }
  batch.learnContacts(facts.filter((fact) => Object.keys(fact).length > (fact.lid ? 2 : 1)));
  for (const { party, fullName } of saved) batch.event(normalise.contact({ contact: party, fullName, inPhoneAddressBook: true }));
}

/** A person as a fact for the store. */
export function contactFact(party: Party, contact: Contact): ContactFact {
  return {
    jid: party.jid,
    ...(party.lid ? { lid: party.lid } : {}),
    ...(contact.notify ? { pushName: contact.notify } : {}),
    ...(contact.name ? { fullName: contact.name } : {}),
    ...(contact.verifiedName ? { businessName: contact.verifiedName } : {}),
  };
}

export function personOf(batch: InboundBatch, contact: Contact): Party | undefined {
  const jid = contact.id || contact.lid || contact.phoneNumber;
  if (!jid || !(batch.lib.isLidUser(jid) || batch.lib.isPnUser(jid))) return undefined;
  return batch.who.party(jid);
}
