import { Body, HttpCode, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { CreatedIdDto } from '../../common/created-id.dto';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import {
  CreatedIdsDto,
  SandboxChatSettingDto,
  SandboxDeleteDto,
  SandboxEditDto,
  SandboxInboundBatchDto,
  SandboxInboundDto,
  SandboxReceiptDto,
  SandboxLinkDropDto,
  SandboxRefusalDto,
  SandboxStarDto,
  SandboxUndecryptableDto,
} from './sandbox-messages.dto';

/** A thousand inbound messages take the worker well under a second each; the default 10 s deadline is for one. */
const INBOUND_BATCH_DEADLINE_MS = 60_000;

/** Test mode: contacts send messages and receipts; the phone deletes, stars and changes chat settings. Real instances answer 404. */
@SandboxRoutes()
export class SandboxMessagesController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /**
   * A contact sends a message (text, media, reaction, contact, pinInChat) or taps a reply button / list row of a
   * message this instance sent (`message`; `chat_push_name` first when the sender's push name changed).
   */
  @Post('inbound')
  @ApiCreatedResponse({ type: CreatedIdDto })
  inbound(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxInboundDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.inbound', dto);
  }

  /**
   * A contact's message this device could not decrypt and never got again (`message_undecryptable`, as the real network
   * reports it once the failure is final): the id names the lost message.
   */
  @Post('inbound/undecryptable')
  @ApiCreatedResponse({ type: CreatedIdDto })
  undecryptable(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxUndecryptableDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.undecryptable', {
      from: dto.from,
      reason: dto.reason ?? 'Bad MAC',
      attempts: dto.attempts ?? 1,
    });
  }

  /**
   * Many inbound messages at once (1 to 1,000), delivered in order as if sent one after another: each is what
   * `POST /sandbox/inbound` takes, with the same rules. All are checked first; when one is refused
   * (`validation error: messages[i]...`) none is delivered. Answers the ids in the order given. For load tests of a
   * webhook receiver without one HTTP request per event.
   */
  @Post('inbound/batch')
  @ApiCreatedResponse({ type: CreatedIdsDto })
  inboundBatch(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxInboundBatchDto): Promise<CreatedIdsDto> {
    return this.sandbox.command(scope, 'sandbox.inboundBatch', dto, INBOUND_BATCH_DEADLINE_MS);
  }

  /** The recipient's phone reports a sent message delivered, read or played (`message_read`). */
  @Post('receipts')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'receipt produced' })
  async receipt(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxReceiptDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.receipt', dto);
  }

  /** A message is deleted: by its author for everyone, or by the phone for this account only (`message_delete`). */
  @Post('delete')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'message deleted' })
  async deleteMessage(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxDeleteDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.delete', dto);
  }

  /**
   * A contact edits the text of a text message it sent (`message` with `isEdit`, a new id, and `edit` naming the
   * original). A message this instance sent is refused (it edits its own through `POST /messages/{messageId}/edit`).
   */
  @Post('edit')
  @ApiCreatedResponse({ type: CreatedIdDto })
  editMessage(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxEditDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.edit', dto);
  }

  /**
   * The network refuses this instance's messages to a chat with an error ack, as WhatsApp does for a restricted account
   * (463), an invalid stanza (479) or a rate limit (421): each such send ends in `message_status` failed with that
   * `code`, and repeated 463/479 pause the instance's sends (`instance_sending`), as on the real network.
   */
  @Put('refusals')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'the chat is refused (or taken again)' })
  async refusal(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxRefusalDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.refusal', {
      chatId: dto.chatId,
      code: dto.code,
      ...(dto.times === undefined ? {} : { times: dto.times }),
    });
  }

  /**
   * The link drops right after the network took the chat's next message, before its acknowledgement reached the
   * instance: the recipient has the message, the send ends in `message_status` unconfirmed (never sent again), and the
   * instance reconnects; the recipient's receipt (`POST /sandbox/receipts`) then reports it sent, as on the real network.
   */
  @Put('link-drops')
  @HttpCode(204)
  @ApiNoContentResponse({ description: "the link drops after the chat's next messages" })
  async linkDrop(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxLinkDropDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.linkDrop', { chatId: dto.chatId, ...(dto.times === undefined ? {} : { times: dto.times }) });
  }

  /** The phone stars or unstars a message (`message_star`). */
  @Post('star')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'message starred or unstarred' })
  async star(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxStarDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.star', dto);
  }

  /** The phone mutes, pins, marks read, archives a chat or sets its disappearing-message timer (`chat_setting`). */
  @Post('chat-settings')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'chat setting changed' })
  async chatSetting(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxChatSettingDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.chatSetting', dto);
  }
}
