import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import type { CreatedIdDto } from '../common/created-id.dto';
import type {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
} from './dto/message-actions.dto';
import type { SendButtonsDto } from './dto/send-buttons.dto';
import type { SendContactDto } from './dto/send-contact.dto';
import type { SendLinkDto } from './dto/send-link.dto';
import type { SendListDto } from './dto/send-list.dto';
import type { SendLocationDto } from './dto/send-location.dto';
import type { SendTextDto } from './dto/send-text.dto';
import {
  buttonsRequest,
  contactRequest,
  deleteForMeRequest,
  deleteRequest,
  editRequest,
  linkRequest,
  listRequest,
  locationRequest,
  pinRequest,
  reactionRequest,
  readRequest,
  starRequest,
  textRequest,
} from './message-payloads';
import { MessageRules } from './message-rules';
import { MessagesService, type SendRequest } from './messages.service';

const MESSAGE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** One method per endpoint: turn the request into a stored send after the rules the network would apply. */
@Injectable()
export class MessageSends {
  constructor(
    private readonly messages: MessagesService,
    private readonly rules: MessageRules,
  ) {}

  text(scope: InstanceScope, dto: SendTextDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, textRequest(dto), key);
  }

  buttons(scope: InstanceScope, dto: SendButtonsDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, buttonsRequest(dto), key);
  }

  list(scope: InstanceScope, dto: SendListDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, listRequest(dto), key);
  }

  contact(scope: InstanceScope, dto: SendContactDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, contactRequest(dto), key);
  }

  location(scope: InstanceScope, dto: SendLocationDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, locationRequest(dto), key);
  }

  link(scope: InstanceScope, dto: SendLinkDto, key?: string): Promise<CreatedIdDto> {
    return this.messages.accept(scope, linkRequest(dto), key);
  }

  async edit(scope: InstanceScope, messageId: string, dto: EditMessageDto, key?: string): Promise<CreatedIdDto> {
    this.assertMessageId(messageId);
    await this.rules.assertEditable(scope, messageId, dto.to);
    return this.messages.accept(scope, editRequest(messageId, dto), key);
  }

  async delete(scope: InstanceScope, messageId: string, dto: DeleteMessageDto, key?: string): Promise<void> {
    this.assertMessageId(messageId);
    await this.rules.assertDeletableForEveryone(scope, messageId, dto.chatId, dto.senderId);
    await this.messages.accept(scope, deleteRequest(messageId, dto), key);
  }

  reaction(scope: InstanceScope, messageId: string, dto: SendReactionDto, key?: string): Promise<CreatedIdDto> {
    this.assertMessageId(messageId);
    return this.messages.accept(scope, reactionRequest(messageId, dto), key);
  }

  deleteForMe(scope: InstanceScope, messageId: string, dto: DeleteMessageForMeDto, key?: string): Promise<void> {
    return this.operation(scope, messageId, (id) => deleteForMeRequest(id, dto), key);
  }

  read(scope: InstanceScope, messageId: string, dto: MarkAsReadDto, key?: string): Promise<void> {
    return this.operation(scope, messageId, (id) => readRequest(id, dto), key);
  }

  star(scope: InstanceScope, messageId: string, dto: StarMessageDto, key?: string): Promise<void> {
    return this.operation(scope, messageId, (id) => starRequest(id, dto), key);
  }

  pin(scope: InstanceScope, messageId: string, dto: PinMessageDto, key?: string): Promise<void> {
    return this.operation(scope, messageId, (id) => pinRequest(id, dto), key);
  }

  /** Operations that only change how the network shows a message; a target it does not know fails as a send. */
  private async operation(
    scope: InstanceScope,
    messageId: string,
    request: (targetId: string) => SendRequest,
    key?: string,
  ): Promise<void> {
    this.assertMessageId(messageId);
    await this.messages.accept(scope, request(messageId), key);
  }

  private assertMessageId(messageId: string): void {
    if (!MESSAGE_ID.test(messageId))
      throw AppError.validation('messageId must be a message id (letters, digits, ".", "_" or "-", at most 128)');
  }
}
