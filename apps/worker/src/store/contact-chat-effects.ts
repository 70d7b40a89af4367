import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChatStoreRepository, ContactStoreRepository } from '@app/database';
import { OperationEffects } from './operation-effects';

/**
 * Store changes the network reports through the operation's answer rather than an event: a deleted chat leaves the
 * chat list (the event catalogue has no chat-deleted event), and a full contact sync replaces the address book.
 */
@Injectable()
export class ContactChatEffects implements OnModuleInit {
  constructor(
    private readonly effects: OperationEffects,
    private readonly chats: ChatStoreRepository,
    private readonly contacts: ContactStoreRepository,
  ) {}

  onModuleInit(): void {
    this.effects.register('chats.delete', (instanceId, { chatId }) => this.chats.remove(instanceId, chatId));
    this.effects.register('contacts.sync', (instanceId, _args, { contacts }) => this.contacts.replaceAddressBook(instanceId, contacts));
  }
}
