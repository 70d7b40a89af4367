import { createHash, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  PermanentSendError,
  jidKind,
  normaliseChatId,
  newMessageId,
  normaliseUserId,
  phoneOfJid,
  type OutboundMessage,
  type SandboxContactSpec,
  type SandboxGroupSpec,
  type SandboxInboundSpec,
} from '@app/contracts';
import { SandboxRepository, type SandboxDeviceState, type SandboxGroupInput, type SandboxMessageRecord } from '@app/database';
import { groupJid, inviteCode, randomPhone } from './codes';
import type { SandboxSession } from './sandbox-session';

interface ReplyButton {
  type?: string;
  id?: string;
  text?: string;
}

interface ListSection {
  rows?: { id: string; title: string; description?: string }[];
}

type Operation = 'edit' | 'delete' | 'reaction' | 'read' | 'star' | 'pin' | 'delete_for_me';

const OPERATIONS: Partial<Record<OutboundMessage['kind'], Operation>> = {
  edit: 'edit',
  delete: 'delete',
  reaction: 'reaction',
  read: 'read',
  star: 'star',
  pin: 'pin',
  delete_for_me: 'delete_for_me',
};

/** Only the author may edit or delete for everyone. */
const AUTHOR_ONLY = new Set<Operation>(['edit', 'delete']);
const PIN_SECONDS: Record<string, number> = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

function identityOf(jid: string, isMe: boolean): Record<string, unknown> {
  const phone = phoneOfJid(jid);
  return { id: jid, ...(phone ? { phone } : {}), isMe };
}

/**
 * The simulated network: what a phone, contacts and groups would do, persisted in PostgreSQL. The worker that
 * owns an instance runs its session here; the sandbox control API acts on the network through that worker.
 */
@Injectable()
export class SandboxNetwork {
  private readonly sessions = new Map<string, SandboxSession>();

  constructor(private readonly store: SandboxRepository) {}

  attach(session: SandboxSession): void {
    this.sessions.set(session.identity.instanceId, session);
  }

  detach(session: SandboxSession): void {
    if (this.sessions.get(session.identity.instanceId) === session) this.sessions.delete(session.identity.instanceId);
  }

  device(instanceId: string): Promise<SandboxDeviceState> {
    return this.store.device(instanceId);
  }

  unpair(instanceId: string): Promise<void> {
    return this.store.unpair(instanceId);
  }

  /** The phone scans the QR code (or enters the pair code) the instance's session is offering. */
  async pair(instanceId: string, phone?: string): Promise<{ deviceId: string }> {
    const device = await this.store.device(instanceId);
    if (device.deviceId) throw new AppError('device_already_paired');
    const session = this.sessions.get(instanceId);
    if (!session?.isPairing) throw new AppError('instance_unavailable');
    const number = phone ?? session.pendingPairPhone ?? randomPhone();
    const deviceId = `${number}:${randomInt(2, 60)}@s.whatsapp.net`;
    await this.store.pair(instanceId, number, deviceId);
    session.completePairing(deviceId);
    return { deviceId };
  }

  async setLink(instanceId: string, online: boolean): Promise<{ online: boolean }> {
    await this.store.setOnline(instanceId, online);
    if (!online) this.sessions.get(instanceId)?.linkDropped();
    return { online };
  }

  async logoutFromPhone(instanceId: string): Promise<{ loggedOut: boolean }> {
    const device = await this.store.device(instanceId);
    if (!device.deviceId) throw new AppError('device_not_paired');
    await this.store.unpair(instanceId);
    this.sessions.get(instanceId)?.loggedOutFromPhone();
    return { loggedOut: true };
  }

  async addContact(instanceId: string, spec: SandboxContactSpec): Promise<{ id: string }> {
    const jid = normaliseUserId(spec.id);
    if (!jid || jidKind(jid) !== 'user') throw AppError.validation('id must be a user JID or an international number');
    if (spec.lid !== undefined && jidKind(spec.lid) !== 'lid') throw AppError.validation('lid must be a JID ending in @lid');
    await this.store.upsertContact(instanceId, { ...spec, jid });
    return { id: jid };
  }

  async createGroup(instanceId: string, spec: SandboxGroupSpec): Promise<{ id: string }> {
    const self = await this.selfJid(instanceId);
    const participants = this.users(spec.participants, 'participants');
    const admins = this.users(spec.admins, 'admins');
    const outsider = admins.find((admin) => !participants.includes(admin));
    if (outsider) throw AppError.validation(`admins must be participants: ${outsider} is not`);
    type Member = SandboxGroupInput['participants'][number];
    const member = (jid: string, isAdmin: boolean): Member => ({ jid, role: isAdmin ? 'admin' : 'member' });
    const members = [
      ...participants.filter((jid) => jid !== self).map((jid) => member(jid, admins.includes(jid))),
      member(self, spec.selfIsAdmin),
    ];
    const group = (kind: SandboxGroupInput['kind'], name: string, parentJid: string | null): SandboxGroupInput => ({
      jid: groupJid(),
      name,
      kind,
      parentJid,
      inviteCode: inviteCode(),
      participants: members,
    });
    if (!spec.community) {
      const created = group('group', spec.name, null);
      await this.store.createGroups(instanceId, [created]);
      return { id: created.jid };
    }
    const community = group('community', spec.name, null);
    await this.store.createGroups(instanceId, [
      community,
      group('announcement', spec.name, community.jid),
      group('subgroup', 'General', community.jid),
    ]);
    return { id: community.jid };
  }

  /** A contact sends a message, or taps a reply button or list row of a message this instance sent. */
  async inbound(instanceId: string, spec: SandboxInboundSpec): Promise<{ id: string }> {
    const session = this.openSession(instanceId);
    const from = normaliseUserId(spec.from);
    if (!from) throw AppError.validation('from must be a user JID or an international number');
    const chatId = spec.chatId === undefined ? from : normaliseChatId(spec.chatId);
    if (!chatId) throw AppError.validation('chatId must be a chat JID');
    const content = await this.inboundContent(instanceId, spec);
    const record = await this.store.recordMessage(instanceId, {
      id: newMessageId(),
      direction: 'inbound',
      chatJid: chatId,
      senderJid: from,
      type: spec.type,
      content,
    });
    if (spec.pushName)
      await this.store.upsertContact(instanceId, { ...(await this.knownContact(instanceId, from)), jid: from, pushName: spec.pushName });
    session.deliver('message', this.messageEvent(record, spec.pushName));
    return { id: record.id };
  }

  /** The recipient's phone reports a message delivered or read. */
  async receipt(instanceId: string, messageId: string, status: 'delivered' | 'read'): Promise<{ id: string }> {
    const session = this.openSession(instanceId);
    const message = await this.store.message(instanceId, messageId);
    if (!message || message.direction !== 'outbound') throw new AppError('not_found');
    await this.store.setMessageStatus(instanceId, messageId, status);
    session.deliver('message_read', {
      chatId: message.chatJid,
      sender: identityOf(message.chatJid, false),
      messageSender: identityOf(message.senderJid, true),
      isGroup: jidKind(message.chatJid) === 'group',
      messageIds: [message.id],
      time: new Date().toISOString(),
      receiptType: status,
    });
    return { id: messageId };
  }

  /** The network takes a message (or an edit, delete or reaction) from the instance. */
  async receive(instanceId: string, message: OutboundMessage): Promise<void> {
    const self = await this.selfJid(instanceId);
    const operation = OPERATIONS[message.kind];
    if (operation) {
      await this.applyOperation(instanceId, self, message, operation);
      return;
    }
    await this.store.receiveOnce(instanceId, {
      id: message.id,
      direction: 'outbound',
      chatJid: message.chatJid,
      senderJid: self,
      type: message.kind,
      content: this.rendered(message),
    });
  }

  async history(instanceId: string): Promise<Record<string, unknown>[]> {
    const messages = await this.store.messages(instanceId);
    return messages.map((message) => this.messageEvent(message));
  }

  outbox(instanceId: string): Promise<SandboxMessageRecord[]> {
    return this.store.messages(instanceId, 'outbound');
  }

  /** What the recipient's phone gets: for media, the file's type, size and digest instead of how we obtained it. */
  private rendered(message: OutboundMessage): Record<string, unknown> {
    if (!message.media) return message.payload;
    const { data, mimeType } = message.media;
    return { ...message.payload, media: { mimeType, size: data.length, sha256: createHash('sha256').update(data).digest('hex') } };
  }

  /**
   * Operations change the message they target, as the phones would show it: edits, deletes for everyone and pins
   * for the whole chat; reactions per reactor; read receipts towards the sender; stars and deletes-for-me only in
   * this instance's own view.
   */
  private async applyOperation(instanceId: string, self: string, message: OutboundMessage, operation: Operation): Promise<void> {
    const payload = message.payload;
    const targetId = typeof payload.targetId === 'string' ? payload.targetId : '';
    const target = await this.store.message(instanceId, targetId);
    if (!target || target.chatJid !== message.chatJid)
      throw new PermanentSendError(`message ${targetId} is unknown to the network in ${message.chatJid}`);
    if (AUTHOR_ONLY.has(operation) && target.senderJid !== self)
      throw new PermanentSendError(`message ${targetId} was not sent by this instance`);
    if (operation === 'read' && target.senderJid === self) {
      throw new PermanentSendError(`message ${targetId} was sent by this instance; only received messages are read`);
    }
    const content = { ...target.content };
    switch (operation) {
      case 'edit':
        Object.assign(content, { text: payload.text, edited: true });
        break;
      case 'delete':
        content.deleted = true;
        break;
      case 'reaction': {
        const reactions = { ...((content.reactions as Record<string, string> | undefined) ?? {}) };
        const emoji = typeof payload.reaction === 'string' ? payload.reaction : '';
        if (emoji) reactions[self] = emoji;
        else delete reactions[self];
        content.reactions = reactions;
        break;
      }
      case 'read':
        await this.store.setMessageStatus(instanceId, targetId, typeof payload.receiptType === 'string' ? payload.receiptType : 'read');
        return;
      case 'star':
        content.starred = payload.starred !== false;
        break;
      case 'pin':
        if (payload.pinned === false) delete content.pinned;
        else content.pinned = { by: self, seconds: PIN_SECONDS[typeof payload.pinExpiration === 'string' ? payload.pinExpiration : '7d'] };
        break;
      case 'delete_for_me':
        content.deletedForMe = true;
        break;
    }
    await this.store.updateContent(instanceId, targetId, content);
  }

  private openSession(instanceId: string): SandboxSession {
    const session = this.sessions.get(instanceId);
    if (!session?.isOpen) throw new AppError('instance_unavailable');
    return session;
  }

  private async selfJid(instanceId: string): Promise<string> {
    const device = await this.store.device(instanceId);
    if (!device.phone || !device.deviceId) throw new AppError('device_not_paired');
    return `${device.phone}@s.whatsapp.net`;
  }

  private users(values: string[], field: string): string[] {
    return [
      ...new Set(
        values.map((value, index) => {
          const jid = normaliseUserId(value);
          if (!jid) throw AppError.validation(`${field}[${index}] must be a user JID or an international number`);
          return jid;
        }),
      ),
    ];
  }

  private async knownContact(instanceId: string, jid: string) {
    const contact = await this.store.contact(instanceId, jid);
    return {
      lid: contact?.lid ?? undefined,
      fullName: contact?.fullName ?? undefined,
      businessName: contact?.businessName ?? undefined,
    };
  }

  /** A phone can only tap what it was shown: the reply must name a real button or row of a message we sent. */
  private async inboundContent(instanceId: string, spec: SandboxInboundSpec): Promise<Record<string, unknown>> {
    if (spec.type === 'text') {
      if (!spec.text) throw AppError.validation('text is required for a text message');
      return { text: spec.text, ...(spec.replyTo ? { replyTo: spec.replyTo } : {}) };
    }
    if (!spec.replyTo) throw AppError.validation(`replyTo is required for a ${spec.type}`);
    const original = await this.store.message(instanceId, spec.replyTo);
    if (!original || original.direction !== 'outbound')
      throw AppError.validation(`replyTo ${spec.replyTo} is not a message this instance sent`);
    if (spec.type === 'button_reply') {
      const buttons = (original.content.buttons as ReplyButton[] | undefined) ?? [];
      const button = buttons.find((candidate) => (candidate.type ?? 'reply') === 'reply' && candidate.id === spec.buttonId);
      if (original.type !== 'buttons' || !button)
        throw AppError.validation(`buttonId ${spec.buttonId ?? '(missing)'} is not a reply button of message ${spec.replyTo}`);
      return { replyTo: spec.replyTo, buttonReply: { id: button.id, text: button.text } };
    }
    const sections = (original.content.sections as ListSection[] | undefined) ?? [];
    const row = sections.flatMap((section) => section.rows ?? []).find((candidate) => candidate.id === spec.rowId);
    if (original.type !== 'list' || !row)
      throw AppError.validation(`rowId ${spec.rowId ?? '(missing)'} is not a row of list message ${spec.replyTo}`);
    return {
      replyTo: spec.replyTo,
      listReply: { id: row.id, title: row.title, ...(row.description ? { description: row.description } : {}) },
    };
  }

  private messageEvent(message: SandboxMessageRecord, pushName?: string): Record<string, unknown> {
    const isMe = message.direction === 'outbound';
    const content = message.content;
    const buttonReply = content.buttonReply as { id: string; text?: string } | undefined;
    const listReply = content.listReply as { id: string; title?: string } | undefined;
    return {
      id: message.id,
      time: message.at.toISOString(),
      chatId: message.chatJid,
      sender: identityOf(message.senderJid, isMe),
      ...(pushName ? { pushName } : {}),
      isGroup: jidKind(message.chatJid) === 'group',
      type: message.type,
      text: typeof content.text === 'string' ? content.text : (buttonReply?.text ?? listReply?.title ?? ''),
      ...(typeof content.replyTo === 'string' ? { replyTo: { id: content.replyTo } } : {}),
      ...(buttonReply ? { buttonReply } : {}),
      ...(listReply ? { listReply } : {}),
    };
  }
}
