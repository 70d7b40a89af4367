import { Injectable } from '@nestjs/common';
import type { NetworkOperations, OperationArgs, OperationName, OperationResult } from '@app/contracts';
import type { BaileysContext, BaileysOperationsPort } from '../baileys-context';
import { BaileysCallOperations } from './baileys-call-operations';
import { BaileysChatOperations } from './baileys-chat-operations';
import { BaileysCommunityOperations } from './baileys-community-operations';
import { BaileysContactOperations } from './baileys-contact-operations';
import { BaileysGroupOperations } from './baileys-group-operations';
import { BaileysMediaOperations } from './baileys-media-operations';
import { networkError } from './network-errors';
import { BaileysNewsletterOperations } from './baileys-newsletter-operations';
import type { BaileysOperationHandlers } from './operation-handlers';
import { BaileysStatusOperations } from './baileys-status-operations';
import { BaileysUserOperations } from './baileys-user-operations';

/**
 * The real network's side of every network operation, one Baileys call (or a few) each. The table must cover every
 * operation of the contract (the compiler checks it). Whatever the network refuses comes back as the AppError the
 * API reports; events the operations cause arrive through the socket's own event stream, not from here.
 */
@Injectable()
export class BaileysOperations implements BaileysOperationsPort {
  private readonly handlers: Record<string, (context: BaileysContext, args: unknown) => Promise<unknown>>;

  constructor(
    chats: BaileysChatOperations,
    contacts: BaileysContactOperations,
    groups: BaileysGroupOperations,
    communities: BaileysCommunityOperations,
    users: BaileysUserOperations,
    calls: BaileysCallOperations,
    media: BaileysMediaOperations,
    newsletters: BaileysNewsletterOperations,
    status: BaileysStatusOperations,
  ) {
    const table: BaileysOperationHandlers<NetworkOperations> = {
      ...chats.handlers,
      ...contacts.handlers,
      ...groups.handlers,
      ...communities.handlers,
      ...users.handlers,
      ...calls.handlers,
      ...media.handlers,
      ...newsletters.handlers,
      ...status.handlers,
    };
    this.handlers = table as unknown as typeof this.handlers;
  }

  async perform<N extends OperationName>(context: BaileysContext, name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    try {
      return (await this.handlers[name](context, args)) as OperationResult<N>;
    } catch (error) {
      throw networkError(error);
    }
  }
}

/** Every provider the operations need; the messaging module registers them. */
export const BAILEYS_OPERATION_PROVIDERS = [
  BaileysOperations,
  BaileysChatOperations,
  BaileysContactOperations,
  BaileysGroupOperations,
  BaileysCommunityOperations,
  BaileysUserOperations,
  BaileysCallOperations,
  BaileysMediaOperations,
  BaileysNewsletterOperations,
  BaileysStatusOperations,
];
