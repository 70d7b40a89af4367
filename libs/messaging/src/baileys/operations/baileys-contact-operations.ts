import { Injectable } from '@nestjs/common';
import type { AddressBookEntry, ContactOperations } from '@app/contracts';
import { ContactStoreRepository } from '@app/database';
import { isLidJid, isPhoneJid, partyOf } from './jids';
import { lidOf, phoneOf } from '../lid-mapping';
import { refuseBlockingSelf } from '../../network-rules';
import type { BaileysOperationHandlers } from './operation-handlers';

/**
 * The phone's address book and the account's blocklist. Address-book changes are app-state patches; the socket's
 * own `contacts.upsert` brings the `contact` event. Blocklist changes reach the account's devices as the network's
 * `account_sync` notification (Baileys' `blocklist.update`).
 */
@Injectable()
export class BaileysContactOperations {
  constructor(private readonly contacts: ContactStoreRepository) {}

  readonly handlers: BaileysOperationHandlers<ContactOperations> = {
    'contacts.save': async (context, { jid, fullName, firstName }) => {
      const lid = isPhoneJid(jid) ? await lidOf(context, jid) : undefined;
      await context.socket.addOrEditContact(jid, {
        fullName,
        ...(firstName ? { firstName } : {}),
        ...(lid ? { lidJid: lid } : {}),
        saveOnPrimaryAddressbook: true,
      });
      return {};
    },

    // The network has no query for the address book: it reaches linked devices only as app-state sync, which the
    // socket applies as it arrives and the worker keeps in the contact store. That store is the synced copy.
    'contacts.sync': async ({ instanceId }) => {
      const entries = (await this.contacts.list(instanceId))
        .filter((contact) => contact.inAddressBook && contact.fullName !== null)
        .map((contact): AddressBookEntry => ({
          jid: contact.jid,
          fullName: contact.fullName as string,
          ...(contact.lid ? { lid: contact.lid } : {}),
          ...(contact.firstName ? { firstName: contact.firstName } : {}),
        }));
      return { contacts: entries };
    },

    'contacts.blocklist': async (context) => {
      const listed = (await context.socket.fetchBlocklist()).filter((jid): jid is string => typeof jid === 'string');
      const blocked = await Promise.all(
        listed.map(async (jid) => {
          // The network lists blocked people by LID; the gateway names people by phone number where it knows it.
          const phoneNumber = isLidJid(jid) ? await phoneOf(context, jid) : undefined;
          const party = partyOf(jid, { phoneNumber });
          return { jid: party.jid, ...(party.lid ? { lid: party.lid } : {}) };
        }),
      );
      return { blocked };
    },

    'contacts.block': async (context, { jid, blocked }) => {
      refuseBlockingSelf(jid, [context.selfJid, context.selfLid]);
      await context.socket.updateBlockStatus(jid, blocked ? 'block' : 'unblock');
      return {};
    },
  };
}
