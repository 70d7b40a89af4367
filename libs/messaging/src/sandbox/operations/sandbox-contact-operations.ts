import { Injectable } from '@nestjs/common';
import type { AddressBookEntry, ContactOperations } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { normalise } from '../../events/normalise';
import { refuseBlockingSelf } from '../../network-rules';
import { SandboxPeople } from '../sandbox-people';
import { WORLD_KINDS, type StoredAddressBookDetails, type StoredBlock } from '../world-kinds';
import type { OperationHandlers } from './operation-handlers';

/** The phone's address book and the account's blocklist, as the simulated network keeps them. */
@Injectable()
export class SandboxContactOperations {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly world: SandboxWorldRepository,
  ) {}

  readonly handlers: OperationHandlers<ContactOperations> = {
    'contacts.save': async ({ instanceId, session }, { jid, fullName, firstName }) => {
      const known = await this.store.contact(instanceId, jid);
      await this.store.upsertContact(instanceId, {
        jid,
        fullName,
        lid: known?.lid ?? undefined,
        pushName: known?.pushName ?? undefined,
        businessName: known?.businessName ?? undefined,
      });
      await this.world.putRecord(instanceId, WORLD_KINDS.addressBook, jid, {
        ...(firstName ? { firstName } : {}),
      } satisfies StoredAddressBookDetails);
      // The app-state patch carries the first name too; the `contact` event has no field for it.
      session.learn({ contacts: [{ jid, firstName: firstName ?? null }] });
      session.deliver(normalise.contact({ contact: await this.people.party(instanceId, jid), fullName, inPhoneAddressBook: true }));
      return {};
    },
    'contacts.sync': async ({ instanceId }) => {
      const [contacts, details] = await Promise.all([
        this.store.contacts(instanceId),
        this.world.records<StoredAddressBookDetails>(instanceId, WORLD_KINDS.addressBook),
      ]);
      const firstNames = new Map(details.map(({ key, data }) => [key, data.firstName]));
      const entries = contacts
        .filter((contact) => contact.fullName !== null)
        .sort((a, b) => a.jid.localeCompare(b.jid))
        .map((contact): AddressBookEntry => {
          const firstName = firstNames.get(contact.jid);
          return {
            jid: contact.jid,
            fullName: contact.fullName as string,
            ...(contact.lid ? { lid: contact.lid } : {}),
            ...(firstName ? { firstName } : {}),
          };
        });
      return { contacts: entries };
    },
    'contacts.blocklist': async ({ instanceId }) => {
      const [blocked, party] = await Promise.all([
        this.world.records<StoredBlock>(instanceId, WORLD_KINDS.blocklist),
        this.people.partyResolver(instanceId),
      ]);
      return { blocked: blocked.map(({ key }) => party(key)).map(({ jid, lid }) => ({ jid, ...(lid ? { lid } : {}) })) };
    },
    'contacts.block': async ({ instanceId, self }, { jid, blocked }) => {
      refuseBlockingSelf(jid, [self]);
      if (blocked) {
        const existing = await this.world.record<StoredBlock>(instanceId, WORLD_KINDS.blocklist, jid);
        if (!existing)
          await this.world.putRecord(instanceId, WORLD_KINDS.blocklist, jid, { at: new Date().toISOString() } satisfies StoredBlock);
      } else {
        await this.world.deleteRecord(instanceId, WORLD_KINDS.blocklist, jid);
      }
      return {};
    },
  };
}
