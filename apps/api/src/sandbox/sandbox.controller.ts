import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import {
  InboxEntryDto,
  NetworkOperationDto,
  OutboxEntryDto,
  SandboxCallDto,
  SandboxCallEndDto,
  SandboxChatSettingDto,
  SandboxConnectionDto,
  SandboxContactDto,
  SandboxDeleteDto,
  SandboxGroupChangeDto,
  SandboxGroupDto,
  CreatedIdsDto,
  SandboxInboundBatchDto,
  SandboxInboundDto,
  SandboxNewsletterDto,
  SandboxNewsletterMuteDto,
  SandboxPairDto,
  SandboxPairedDto,
  SandboxPresenceDto,
  SandboxProfileDto,
  SandboxReceiptDto,
  SandboxStarDto,
} from './dto/sandbox.dto';
import { SandboxEditDto } from './dto/sandbox-edit.dto';
import { SandboxService } from './sandbox.service';

/** Test mode: plays the phone and the contacts of a sandbox instance. Real instances answer 404. */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(404, 503)
@Controller('sandbox')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  /**
   * As if the phone scanned the QR code: the instance becomes connected and `logged_in` is emitted (then
   * `initial_sync_finished` when history sync is on). With `error` the network refuses the device: `login_error`.
   */
  @Post('pair')
  @HttpCode(200)
  @ApiOkResponse({ type: SandboxPairedDto })
  pair(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxPairDto): Promise<SandboxPairedDto> {
    return this.sandbox.pair(scope, dto);
  }

  /** Takes the phone's link offline, or brings it back online. */
  @Post('connection')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'link state changed' })
  connection(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxConnectionDto): Promise<void> {
    return this.sandbox.connection(scope, dto);
  }

  /** Logs the instance out from the phone's side (`logged_out`, reason `user_logged_out`). */
  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'logged out from the phone' })
  @ApiErrors(403)
  logout(@CurrentScope() scope: InstanceScope): Promise<void> {
    return this.sandbox.logout(scope);
  }

  /** Adds or updates a contact in the simulated address book (`contact`). */
  @Post('contacts')
  @ApiCreatedResponse({ type: CreatedIdDto })
  contact(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxContactDto): Promise<CreatedIdDto> {
    return this.sandbox.contact(scope, dto);
  }

  /** Creates a group or community the instance belongs to, with chosen admins (`group`, one per group created). */
  @Post('groups')
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(403)
  group(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxGroupDto): Promise<CreatedIdDto> {
    return this.sandbox.group(scope, dto);
  }

  /**
   * A contact sends a message (text, media, reaction, contact, pinInChat) or taps a reply button / list row of a
   * message this instance sent (`message`; `chat_push_name` first when the sender's push name changed).
   */
  @Post('inbound')
  @ApiCreatedResponse({ type: CreatedIdDto })
  inbound(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxInboundDto): Promise<CreatedIdDto> {
    return this.sandbox.inbound(scope, dto);
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
    return this.sandbox.inboundBatch(scope, dto);
  }

  /** The recipient's phone reports a sent message delivered, read or played (`message_read`). */
  @Post('receipts')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'receipt produced' })
  receipt(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxReceiptDto): Promise<void> {
    return this.sandbox.receipt(scope, dto);
  }

  /** A message is deleted: by its author for everyone, or by the phone for this account only (`message_delete`). */
  @Post('delete')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'message deleted' })
  deleteMessage(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxDeleteDto): Promise<void> {
    return this.sandbox.deleteMessage(scope, dto);
  }

  /**
   * A contact edits the text of a text message it sent (`message` with `isEdit`, a new id, and `edit` naming the
   * original). A message this instance sent is refused (it edits its own through `POST /messages/{messageId}/edit`).
   */
  @Post('edit')
  @ApiCreatedResponse({ type: CreatedIdDto })
  editMessage(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxEditDto): Promise<CreatedIdDto> {
    return this.sandbox.editMessage(scope, dto);
  }

  /** The phone stars or unstars a message (`message_star`). */
  @Post('star')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'message starred or unstarred' })
  star(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxStarDto): Promise<void> {
    return this.sandbox.star(scope, dto);
  }

  /** A contact comes online or goes offline (`user_presence`), or types, records or pauses in a chat (`chat_presence`). */
  @Post('presence')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'presence announced' })
  presence(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxPresenceDto): Promise<void> {
    return this.sandbox.presence(scope, dto);
  }

  /** The phone mutes, pins, marks read, archives a chat or sets its disappearing-message timer (`chat_setting`). */
  @Post('chat-settings')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'chat setting changed' })
  chatSetting(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxChatSettingDto): Promise<void> {
    return this.sandbox.chatSetting(scope, dto);
  }

  /** A contact changes their push name, about text or picture (`chat_push_name`, `chat_status`, `chat_picture`). */
  @Post('profile')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'profile changed' })
  profile(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxProfileDto): Promise<void> {
    return this.sandbox.profile(scope, dto);
  }

  /**
   * A member changes a group: members join or leave, admins are promoted or demoted, name, topic, locked,
   * announce (`group`) or picture (`chat_picture`). Exactly one change per request.
   */
  @Post('groups/:id/changes')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'group changed' })
  groupChange(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxGroupChangeDto): Promise<void> {
    return this.sandbox.groupChange(scope, id, dto);
  }

  /** The phone follows a channel (`newsletter`, action join). */
  @Post('newsletters')
  @ApiCreatedResponse({ type: CreatedIdDto })
  joinNewsletter(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxNewsletterDto): Promise<CreatedIdDto> {
    return this.sandbox.joinNewsletter(scope, dto);
  }

  /** The phone stops following a channel (`newsletter`, action leave). */
  @Post('newsletters/:id/leave')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'channel left' })
  leaveNewsletter(@CurrentScope() scope: InstanceScope, @Param('id') id: string): Promise<void> {
    return this.sandbox.leaveNewsletter(scope, id);
  }

  /** The phone mutes or unmutes a channel (`newsletter`, action mute). */
  @Post('newsletters/:id/mute')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'channel muted or unmuted' })
  muteNewsletter(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxNewsletterMuteDto): Promise<void> {
    return this.sandbox.muteNewsletter(scope, id, dto);
  }

  /** A contact calls this account (`call_offer`); the id names the call for accept and end. */
  @Post('calls')
  @ApiCreatedResponse({ type: CreatedIdDto })
  offerCall(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxCallDto): Promise<CreatedIdDto> {
    return this.sandbox.offerCall(scope, dto);
  }

  /** The phone answers a ringing call (`call_accept`). */
  @Post('calls/:id/accept')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'call accepted' })
  acceptCall(@CurrentScope() scope: InstanceScope, @Param('id') id: string): Promise<void> {
    return this.sandbox.acceptCall(scope, id);
  }

  /** The call ends, hung up or declined (`call_terminate`). */
  @Post('calls/:id/end')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'call ended' })
  endCall(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxCallEndDto): Promise<void> {
    return this.sandbox.endCall(scope, id, dto);
  }

  /** What contacts sent this instance, in order, as the phone shows it now. */
  @Get('inbox')
  @ApiOkResponse({ type: InboxEntryDto, isArray: true })
  inbox(@CurrentScope() scope: InstanceScope): Promise<InboxEntryDto[]> {
    return this.sandbox.inbox(scope);
  }

  /** What the simulated network received from this instance, in order. */
  @Get('outbox')
  @ApiOkResponse({ type: OutboxEntryDto, isArray: true })
  outbox(@CurrentScope() scope: InstanceScope): Promise<OutboxEntryDto[]> {
    return this.sandbox.outbox(scope);
  }

  /** The operations (chat settings, groups, contacts, profile, ...) the simulated network carried out for this instance, in order. */
  @Get('operations')
  @ApiOkResponse({ type: NetworkOperationDto, isArray: true })
  operations(@CurrentScope() scope: InstanceScope): Promise<NetworkOperationDto[]> {
    return this.sandbox.operations(scope);
  }
}
