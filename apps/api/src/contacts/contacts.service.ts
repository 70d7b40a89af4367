import { Injectable } from '@nestjs/common';
import { AppError, jidKind, type InstanceScope } from '@app/contracts';
import { ContactStoreRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import { contactBody, identityBody } from './contact-body';
import type { ContactInfoDto, IdentityDto, SaveContactDto } from './dto/contact.dto';

/** Contacts: read from the store the worker keeps; the address book and blocklist are changed on the network. */
@Injectable()
export class ContactsService {
  constructor(
    private readonly contacts: ContactStoreRepository,
    private readonly commands: CommandClient,
  ) {}

  async list(scope: InstanceScope): Promise<ContactInfoDto[]> {
    return (await this.contacts.listFromReplica(scope.instanceId)).map(contactBody);
  }

  /** A LID finds the person too, when the network told us both identities. */
  async get(scope: InstanceScope, jid: string): Promise<ContactInfoDto> {
    const contact =
      jidKind(jid) === 'lid'
        ? ((await this.contacts.byLidFromReplica(scope.instanceId, jid)) ?? (await this.contacts.findFromReplica(scope.instanceId, jid)))
        : await this.contacts.findFromReplica(scope.instanceId, jid);
    if (!contact) throw new AppError('not_found');
    return contactBody(contact);
  }

  /** `dto.id` is a phone-number account's JID: only those can be saved in an address book. */
  async save(scope: InstanceScope, dto: SaveContactDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'contacts.save', {
      jid: dto.id,
      fullName: dto.fullName,
      ...(dto.firstName ? { firstName: dto.firstName } : {}),
    });
  }

  async sync(scope: InstanceScope): Promise<void> {
    await this.commands.perform(scope.instanceId, 'contacts.sync', {});
  }

  async blocklist(scope: InstanceScope): Promise<IdentityDto[]> {
    const { blocked } = await this.commands.perform(scope.instanceId, 'contacts.blocklist', {});
    return blocked.map((person) => identityBody(person.jid, person.lid));
  }

  async setBlocked(scope: InstanceScope, jid: string, blocked: boolean): Promise<void> {
    await this.commands.perform(scope.instanceId, 'contacts.block', { jid, blocked });
  }
}
