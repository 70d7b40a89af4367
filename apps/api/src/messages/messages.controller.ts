import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { OptionalHeader, type OptionalHeaderDoc } from '../common/optional-header.decorator';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
} from './dto/message-actions.dto';
import { SendButtonsDto } from './dto/send-buttons.dto';
import { SendContactDto } from './dto/send-contact.dto';
import { SendLinkDto } from './dto/send-link.dto';
import { SendListDto } from './dto/send-list.dto';
import { SendLocationDto } from './dto/send-location.dto';
import { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './dto/send-media.dto';
import { SendTextDto } from './dto/send-text.dto';
import { MediaSends } from './media-sends';
import { MessageSends } from './message-sends';

const IDEMPOTENCY_HEADER: OptionalHeaderDoc = {
  name: 'Idempotency-Key',
  description: 'Repeat a request safely: the same key and body return the same id and send once; the same key with another body is 422.',
};

const BETA =
  'Beta: relies on network behaviour that is not an official contract and may change without notice. A 201 means accepted, not rendered; keep a fallback such as accepting a typed answer.';

/**
 * Sends and message operations. A 201/200 means the request is stored and goes out in acceptance order;
 * the outcome arrives as a `message_status` event.
 */
@ApiTags('Messages')
@InstanceAuth()
@ApiErrors(422)
@Controller('messages')
export class MessagesController {
  constructor(
    private readonly sends: MessageSends,
    private readonly media: MediaSends,
  ) {}

  /** Sends a text message (`message`, or its alias `text`). */
  @Post('text')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  text(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendTextDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.text(scope, dto, key);
  }

  @Post('buttons')
  @ApiOperation({
    summary: 'Sends up to three buttons (beta)',
    description: `Sends up to three buttons (reply, url, copy, call). Reply taps come back as \`button_reply\` message events. ${BETA}`,
  })
  @RequiresConnection({ whenUnpaired: 409 })
  @ApiCreatedResponse({ type: CreatedIdDto, description: BETA })
  buttons(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendButtonsDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.buttons(scope, dto, key);
  }

  @Post('list')
  @ApiOperation({
    summary: 'Sends a list behind one button (beta)',
    description: `Sends a list (up to 10 rows in 1-10 sections) behind one button. Choices come back as \`list_reply\` message events. ${BETA}`,
  })
  @RequiresConnection({ whenUnpaired: 409 })
  @ApiCreatedResponse({ type: CreatedIdDto, description: BETA })
  list(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendListDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.list(scope, dto, key);
  }

  /** Sends an image, with an optional caption: `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('image')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  image(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendImageDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'image', dto }, key);
  }

  /** Sends a video, with an optional caption: `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('video')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  video(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendVideoDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'video', dto }, key);
  }

  /** Sends an audio file: `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('audio')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  audio(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendAudioDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'audio', dto }, key);
  }

  /** Sends a voice note (push-to-talk): `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('voice')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  voice(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendVoiceDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'voice', dto }, key);
  }

  /** Sends a document with its file name: `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('document')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  document(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendDocumentDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'document', dto }, key);
  }

  /** Sends a sticker (WebP): `data` (base64) or a public http(s) `url`, fetched when sending (at most 50 MB). */
  @Post('sticker')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(413)
  sticker(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendStickerDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.media.send(scope, { kind: 'sticker', dto }, key);
  }

  /** Sends a contact card. */
  @Post('contact')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  contact(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendContactDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.contact(scope, dto, key);
  }

  /** Sends a location pin. */
  @Post('location')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  location(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendLocationDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.location(scope, dto, key);
  }

  /** Sends a text with a link preview. */
  @Post('link')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  link(
    @CurrentScope() scope: InstanceScope,
    @Body() dto: SendLinkDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.link(scope, dto, key);
  }

  /** Changes the text of a text or link message this instance sent. */
  @Post(':messageId/edit')
  @HttpCode(200)
  @RequiresConnection()
  @ApiErrors(404)
  @ApiOkResponse({ type: CreatedIdDto, description: 'the id of the edit operation' })
  edit(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: EditMessageDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.edit(scope, messageId, dto, key);
  }

  /** Deletes a message this instance sent for everyone in the chat. */
  @Post(':messageId/delete')
  @HttpCode(204)
  @RequiresConnection()
  @ApiErrors(404)
  @ApiNoContentResponse({ description: 'deletion accepted' })
  async delete(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: DeleteMessageDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<void> {
    await this.sends.delete(scope, messageId, dto, key);
  }

  /** Reacts to a message with one emoji; an empty reaction removes this instance's reaction. */
  @Post(':messageId/reaction')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: CreatedIdDto, description: 'the id of the reaction' })
  reaction(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: SendReactionDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<CreatedIdDto> {
    return this.sends.reaction(scope, messageId, dto, key);
  }

  /** Deletes a message from this instance's own view only; the other participants still see it. */
  @Post(':messageId/delete-for-me')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'accepted' })
  async deleteForMe(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: DeleteMessageForMeDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<void> {
    await this.sends.deleteForMe(scope, messageId, dto, key);
  }

  /** Marks a received message as read (the sender sees the receipt). */
  @Post(':messageId/read')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'accepted' })
  async read(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: MarkAsReadDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<void> {
    await this.sends.read(scope, messageId, dto, key);
  }

  /** Stars or unstars a message in this instance's own view. */
  @Post(':messageId/star')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'accepted' })
  async star(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: StarMessageDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<void> {
    await this.sends.star(scope, messageId, dto, key);
  }

  /** Pins a message in the chat for everyone (24h, 7d or 30d), or unpins it. */
  @Post(':messageId/pin')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'accepted' })
  async pin(
    @CurrentScope() scope: InstanceScope,
    @Param('messageId') messageId: string,
    @Body() dto: PinMessageDto,
    @OptionalHeader(IDEMPOTENCY_HEADER) key?: string,
  ): Promise<void> {
    await this.sends.pin(scope, messageId, dto, key);
  }
}
