import { Injectable } from '@nestjs/common';
import { AppError, normaliseChatId, normaliseUserId, type SandboxInboundSpec } from '@app/contracts';
import { SandboxRepository, type SandboxMessageRecord } from '@app/database';
import { mediaId } from './codes';
import { SandboxMediaFiles } from './sandbox-media-files';
import { PIN_SECONDS } from './sandbox-messages';

interface ReplyButton {
  type?: string;
  id?: string;
  text?: string;
}

interface ListSection {
  rows?: { id: string; title: string; description?: string }[];
}

const DEFAULT_MIME: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  voice: 'audio/ogg; codecs=opus',
  document: 'application/pdf',
  sticker: 'image/webp',
};

/** An inbound message checked and built, ready to be delivered. */
export interface PreparedInbound {
  spec: SandboxInboundSpec;
  from: string;
  chatId: string;
  inbound: InboundContent;
}

/** The change a message makes to the message it is about (reactions, pins). */
export interface InboundEffect {
  targetId: string;
  apply(content: Record<string, unknown>): void;
}

interface InboundContent {
  type: string;
  content: Record<string, unknown>;
  effect?: InboundEffect;
}

/** What a contact may send: each inbound message checked against the network's state and built as the network stores it. */
@Injectable()
export class SandboxInboundContent {
  constructor(
    private readonly store: SandboxRepository,
    private readonly mediaFiles: SandboxMediaFiles,
  ) {}

  /** What an inbound message is, checked: sender, chat and content (looked up where it refers to another message). */
  async prepare(instanceId: string, spec: SandboxInboundSpec): Promise<PreparedInbound> {
    const from = normaliseUserId(spec.from);
    if (!from) throw AppError.validation('from must be a user JID or an international number');
    const chatId = spec.chatId === undefined ? from : normaliseChatId(spec.chatId);
    if (!chatId) throw AppError.validation('chatId must be a chat JID');
    return { spec, from, chatId, inbound: await this.inboundContent(instanceId, chatId, from, spec) };
  }

  /** A message of the chat that a reaction or pin can be about. */
  private async chatMessage(
    instanceId: string,
    chatId: string,
    messageId: string | undefined,
    type: string,
  ): Promise<SandboxMessageRecord> {
    if (!messageId) throw AppError.validation(`messageId is required for a ${type}`);
    const target = await this.store.message(instanceId, messageId);
    if (!target || target.chatJid !== chatId) throw AppError.validation(`messageId ${messageId} is not a message of chat ${chatId}`);
    return target;
  }

  /** The common options of a message a contact writes. */
  private options(spec: SandboxInboundSpec): Record<string, unknown> {
    const mentions = spec.mentions?.map((value, index) => {
      const jid = normaliseUserId(value);
      if (!jid) throw AppError.validation(`mentions[${index}] must be a user JID or an international number`);
      return jid;
    });
    return {
      ...(spec.replyTo ? { replyTo: spec.replyTo } : {}),
      ...(mentions?.length ? { mentions } : {}),
      ...(spec.isForwarded ? { isForwarded: true } : {}),
    };
  }

  /** A phone can only tap what it was shown: the reply must name a real button or row of a message we sent. */
  private async inboundContent(instanceId: string, chatId: string, from: string, spec: SandboxInboundSpec): Promise<InboundContent> {
    switch (spec.type) {
      case 'text':
        if (!spec.text) throw AppError.validation('text is required for a text message');
        return { type: 'text', content: { text: spec.text, ...this.options(spec) } };
      case 'media': {
        if (!spec.media) throw AppError.validation('media is required for a media message');
        const { mediaType, mimeType, caption, filename, viewOnce, data, ...file } = spec.media;
        const id = mediaId();
        const type = mimeType ?? DEFAULT_MIME[mediaType];
        const size = await this.mediaFiles.keep(instanceId, id, { mimeType: type, data, fileLength: file.fileLength, filename });
        return {
          type: mediaType,
          content: {
            media: { id, mimeType: type, ...file, ...(data !== undefined ? { fileLength: size } : {}) },
            ...(caption ? { caption } : {}),
            ...(filename ? { filename } : {}),
            ...(viewOnce ? { viewOnce: true } : {}),
            ...this.options(spec),
          },
        };
      }
      case 'reaction': {
        const target = await this.chatMessage(instanceId, chatId, spec.messageId, 'reaction');
        if (spec.emoji === undefined) throw AppError.validation('emoji is required for a reaction (empty to remove one)');
        const emoji = spec.emoji;
        return {
          type: 'reaction',
          content: { messageId: target.id, emoji },
          effect: {
            targetId: target.id,
            apply: (content) => {
              const reactions = { ...((content.reactions as Record<string, string> | undefined) ?? {}) };
              if (emoji) reactions[from] = emoji;
              else delete reactions[from];
              content.reactions = reactions;
            },
          },
        };
      }
      case 'contact':
        if (!spec.vcards?.length) throw AppError.validation('vcards is required for a contact message');
        return { type: 'contact', content: { vcards: spec.vcards, ...this.options(spec) } };
      case 'pinInChat': {
        const target = await this.chatMessage(instanceId, chatId, spec.messageId, 'pinInChat');
        const pinned = spec.pinned !== false;
        const seconds = pinned ? PIN_SECONDS[spec.pinExpiration ?? '7d'] : undefined;
        return {
          type: 'pinInChat',
          content: { messageId: target.id, pinned, ...(seconds ? { seconds } : {}) },
          effect: {
            targetId: target.id,
            apply: (content) => {
              if (pinned) content.pinned = { by: from, seconds };
              else delete content.pinned;
            },
          },
        };
      }
      case 'button_reply':
      case 'list_reply':
        return this.tap(instanceId, spec);
    }
  }

  private async tap(instanceId: string, spec: SandboxInboundSpec): Promise<InboundContent> {
    if (!spec.replyTo) throw AppError.validation(`replyTo is required for a ${spec.type}`);
    const original = await this.store.message(instanceId, spec.replyTo);
    if (!original || original.direction !== 'outbound')
      throw AppError.validation(`replyTo ${spec.replyTo} is not a message this instance sent`);
    if (spec.type === 'button_reply') {
      const buttons = (original.content.buttons as ReplyButton[] | undefined) ?? [];
      const button = buttons.find((candidate) => (candidate.type ?? 'reply') === 'reply' && candidate.id === spec.buttonId);
      if (original.type !== 'buttons' || !button)
        throw AppError.validation(`buttonId ${spec.buttonId ?? '(missing)'} is not a reply button of message ${spec.replyTo}`);
      return { type: 'button_reply', content: { replyTo: spec.replyTo, buttonReply: { id: button.id, text: button.text } } };
    }
    const sections = (original.content.sections as ListSection[] | undefined) ?? [];
    const row = sections.flatMap((section) => section.rows ?? []).find((candidate) => candidate.id === spec.rowId);
    if (original.type !== 'list' || !row)
      throw AppError.validation(`rowId ${spec.rowId ?? '(missing)'} is not a row of list message ${spec.replyTo}`);
    return {
      type: 'list_reply',
      content: {
        replyTo: spec.replyTo,
        listReply: { id: row.id, title: row.title, ...(row.description ? { description: row.description } : {}) },
      },
    };
  }
}
