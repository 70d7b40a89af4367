import { jidKind, phoneOfJid } from '@app/contracts';
import type { StoredContact } from '@app/database';
import type { ContactInfoDto, IdentityDto } from './dto/contact.dto';

/** The contract's Identity: `id` prefers the phone-number JID; unknown parts are left out. */
export function identityBody(jid: string, lid: string | null | undefined): IdentityDto {
  const phone = phoneOfJid(jid);
  return { id: jid, ...(lid && lid !== jid && jidKind(lid) === 'lid' ? { lid } : {}), ...(phone ? { phone } : {}) };
}

export function contactBody(contact: StoredContact): ContactInfoDto {
  return {
    ...identityBody(contact.jid, contact.lid),
    ...(contact.fullName ? { fullName: contact.fullName } : {}),
    ...(contact.firstName ? { firstName: contact.firstName } : {}),
    ...(contact.pushName ? { pushName: contact.pushName } : {}),
    ...(contact.businessName ? { businessName: contact.businessName } : {}),
    inPhoneAddressBook: contact.inAddressBook,
  };
}
