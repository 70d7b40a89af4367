import type { Operation } from './common';

/** An entry of the phone's address book as the network syncs it. */
export interface AddressBookEntry {
  jid: string;
  lid?: string;
  fullName: string;
  firstName?: string;
}

/** Contact operations of the network: the phone's address book and the account's blocklist. */
export interface ContactOperations {
  /** Creates or updates an address-book entry on the phone (app-state sync); a `contact` event follows. */
  'contacts.save': Operation<{ jid: string; fullName: string; firstName?: string }>;
  /** The whole address book, as the network holds it now. */
  'contacts.sync': Operation<Record<string, never>, { contacts: AddressBookEntry[] }>;
  /** The people this account has blocked. */
  'contacts.blocklist': Operation<Record<string, never>, { blocked: { jid: string; lid?: string }[] }>;
  'contacts.block': Operation<{ jid: string; blocked: boolean }>;
}
