import { createHash, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  PermanentSendError,
  isMessageAction,
  jidKind,
  normaliseChatId,
  newMessageId,
  normaliseUserId,
  type MessageActionKind,
  type NormalisedEvent,
  type OutboundMessage,
  type SandboxContactSpec,
  type SandboxGroupSpec,
  type SandboxInboundSpec,
} from '@app/contracts';
import {
  SandboxRepository,
  SandboxWorldRepository,
  type SandboxDeviceState,
  type SandboxGroupInput,
  type SandboxMessageRecord,
} from '@app/database';
import { normalise, type Actor, type MessageInput, type Party } from '../events/normalise';
import { groupJid, inviteCode, mediaId, randomPhone } from './codes';
import { SandboxMediaFiles } from './sandbox-media';
import { storedMessageInput, type MessageContext } from './sandbox-messages';
import type { SentMessage } from '../driver';
import type { SandboxSession } from './sandbox-session';
import { WORLD_KINDS } from './world-kinds';

interface ReplyButton {
  type?: string;
  id?: string;
  text?: string;
}

interface ListSection {
  rows?: { id: string; title: string; description?: string }[];
}

type Operation = MessageActionKind;

/** Only the author may edit or delete for everyone. */
const AUTHOR_ONLY = new Set<Operation>(['edit', 'delete']);
const PIN_SECONDS: Record<string, number> = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

const DEFAULT_MIME: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  voice: 'audio/ogg; codecs=opus',
  document: 'application/pdf',
  sticker: 'image/webp',
};

/** Messages that only change another message; history shows their effect, not them. */
const NOT_IN_HISTORY = new Set(['reaction', 'pinInChat']);

interface PreparedInbound {
  spec: SandboxInboundSpec;
  from: string;
  chatId: string;
  inbound: InboundContent;
}

interface InboundContent {
  type: string;
  content: Record<string, unknown>;
  /** The change the message makes to the message it is about (reactions, pins). */
  effect?: { targetId: string; apply(content: Record<string, unknown>): void };
}

/**
 * The simulated network: what a phone, contacts and groups would do, persisted in PostgreSQL. The worker that
 * owns an instance runs its session here; the sandbox control API acts on the network through that worker.
 * Every event it causes is built by `normalise`, as the real network's driver does.
 */
@Injectable()
export class SandboxNetwork {
  private readonly sessions = new Map<string, SandboxSession>();

  constructor(
    private readonly store: SandboxRepository,
    private readonly mediaFiles: SandboxMediaFiles,
    private readonly world: SandboxWorldRepository,
  ) {}

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

  /**
   * The phone scans the QR code (or enters the pair code) the instance's session is offering. With `error` the
   * network refuses the device: the instance stays unpaired and `login_error` names the device that tried.
   */
  async pair(instanceId: string, phone?: string, error?: string): Promise<{ deviceId: string }> {
    const device = await this.store.device(instanceId);
    if (device.deviceId) throw new AppError('device_already_paired');
    const session = this.sessions.get(instanceId);
    if (!session?.isPairing) throw new AppError('instance_unavailable');
    const number = phone ?? session.pendingPairPhone ?? randomPhone();
    const deviceId = `${number}:${randomInt(2, 60)}@s.whatsapp.net`;
    if (error !== undefined) {
      session.pairingFailed(deviceId, error);
      return { deviceId };
    }
    await this.store.pair(instanceId, number, deviceId);
    await session.completePairing(deviceId);
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

  /** The phone saves a contact; one with a full name is in its address book. */
  async addContact(instanceId: string, spec: SandboxContactSpec): Promise<{ id: string }> {
    const jid = normaliseUserId(spec.id);
    if (!jid || jidKind(jid) !== 'user') throw AppError.validation('id must be a user JID or an international number');
    if (spec.lid !== undefined && jidKind(spec.lid) !== 'lid') throw AppError.validation('lid must be a JID ending in @lid');
    await this.store.upsertContact(instanceId, { ...spec, jid });
    this.sessions.get(instanceId)?.learn({
      contacts: [{ jid, ...(spec.lid ? { lid: spec.lid } : {}), ...(spec.businessName ? { businessName: spec.businessName } : {}) }],
    });
    this.sessions.get(instanceId)?.deliver(
      normalise.contact({
        contact: { jid, lid: spec.lid },
        fullName: spec.fullName ?? '',
        inPhoneAddressBook: spec.fullName !== undefined,
      }),
    );
    return { id: jid };
  }

  /** Someone creates a group (or community) with this instance in it: the first admin, or this instance without admins. */
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
    const created = spec.community
      ? (() => {
          const community = group('community', spec.name, null);
          return [community, group('announcement', spec.name, community.jid), group('subgroup', 'General', community.jid)];
        })()
      : [group('group', spec.name, null)];
    await this.store.createGroups(instanceId, created);

    const creatorJid = admins.find((jid) => jid !== self) ?? self;
    const by = await this.actor(instanceId, creatorJid, self);
    const at = new Date();
    const session = this.sessions.get(instanceId);
    for (const made of created) {
      session?.deliver(
        normalise.group({
          groupId: made.jid,
          by,
          at,
          groupType: 'new',
          isCommunity: made.kind === 'community' ? true : undefined,
          communityId: made.parentJid ?? undefined,
          isAnnouncementGroup: made.parentJid ? made.kind === 'announcement' : undefined,
          join: [{ jid: self }],
        }),
      );
    }
    return { id: created[0].jid };
  }

  /** A contact sends a message, or taps a reply button or list row of a message this instance sent. */
  async inbound(instanceId: string, spec: SandboxInboundSpec): Promise<{ id: string }> {
    const session = this.openSession(instanceId);
    return this.deliverInbound(instanceId, session, await this.prepareInbound(instanceId, spec));
  }

  /**
   * Many inbound messages in order, as if sent one after another. Every one is checked before the first is delivered,
   * so a bad one (`messages[i]: ...`) delivers none of them.
   */
  async inboundBatch(instanceId: string, specs: SandboxInboundSpec[]): Promise<{ ids: string[] }> {
    const session = this.openSession(instanceId);
    const prepared: PreparedInbound[] = [];
    for (const [index, spec] of specs.entries()) {
      try {
        prepared.push(await this.prepareInbound(instanceId, spec));
      } catch (error) {
        if (error instanceof AppError && error.code === 'validation')
          throw AppError.validation(`messages[${index}]: ${error.detail.replace(/^validation error: /, '')}`);
        throw error;
      }
    }
    return { ids: await this.deliverInboundBatch(instanceId, session, prepared) };
  }

  /**
   * What `deliverInbound` does for each message, with the lookups and writes shared: the blocklist, the instance's own
   * JID and contacts are read once, the messages stored in one statement, and each sender's facts learned once (before
   * the messages, with the last push name it showed). The events come out in the same order as one by one.
   */
  private async deliverInboundBatch(instanceId: string, session: SandboxSession, prepared: PreparedInbound[]): Promise<string[]> {
    const blocked = new Set((await this.world.records(instanceId, WORLD_KINDS.blocklist)).map((entry) => entry.key));
    const delivered = prepared.filter((each) => !blocked.has(each.from));
    const records = await this.store.recordMessages(
      instanceId,
      delivered.map(({ from, chatId, inbound }) => ({
        id: newMessageId(),
        direction: 'inbound' as const,
        chatJid: chatId,
        senderJid: from,
        type: inbound.type,
        content: inbound.content,
      })),
    );
    const recordOf = new Map(delivered.map((each, index) => [each, records[index]]));
    const ids = prepared.map((each) => recordOf.get(each)?.id ?? newMessageId());
    const pushNameEvents = new Map<PreparedInbound, NormalisedEvent>();
    const lastPushName = new Map<string, string>();
    for (const each of delivered) {
      const { spec, from, inbound } = each;
      if (inbound.effect) {
        const target = await this.store.message(instanceId, inbound.effect.targetId);
        if (target) {
          const content = { ...target.content };
          inbound.effect.apply(content);
          await this.store.updateContent(instanceId, target.id, content);
        }
      }
      if (spec.pushName) {
        const before = await this.store.setPushName(instanceId, from, spec.pushName);
        if (before !== spec.pushName)
          pushNameEvents.set(each, normalise.chatPushName({ user: await this.party(instanceId, from), pushName: spec.pushName }));
        lastPushName.set(from, spec.pushName);
      }
    }
    for (const from of new Set(delivered.map((each) => each.from))) {
      const sender = await this.store.contact(instanceId, from);
      const pushName = lastPushName.get(from);
      session.learn({
        contacts: [
          {
            jid: from,
            ...(sender?.lid ? { lid: sender.lid } : {}),
            ...(pushName ? { pushName } : {}),
            ...(sender?.businessName ? { businessName: sender.businessName } : {}),
          },
        ],
      });
    }
    const [party, self] = await Promise.all([this.partyResolver(instanceId), this.selfJid(instanceId)]);
    for (const each of delivered) {
      const record = recordOf.get(each) as SandboxMessageRecord;
      const pushNameEvent = pushNameEvents.get(each);
      if (pushNameEvent) session.deliver(pushNameEvent);
      const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
      const quoted = replyTo ? await this.store.message(instanceId, replyTo) : null;
      const input = storedMessageInput(record, { self, party, lookup: (id) => (quoted?.id === id ? quoted : undefined) });
      if (!input) throw new Error(`message ${record.id} of type ${record.type} is not a message event`);
      session.deliver(normalise.message(input));
    }
    return ids;
  }

  /** What an inbound message is, checked: sender, chat and content (looked up where it refers to another message). */
  private async prepareInbound(instanceId: string, spec: SandboxInboundSpec): Promise<PreparedInbound> {
    const from = normaliseUserId(spec.from);
    if (!from) throw AppError.validation('from must be a user JID or an international number');
    const chatId = spec.chatId === undefined ? from : normaliseChatId(spec.chatId);
    if (!chatId) throw AppError.validation('chatId must be a chat JID');
    return { spec, from, chatId, inbound: await this.inboundContent(instanceId, chatId, from, spec) };
  }

  private async deliverInbound(instanceId: string, session: SandboxSession, prepared: PreparedInbound): Promise<{ id: string }> {
    const { spec, from, chatId, inbound } = prepared;
    // The network never delivers a blocked person's messages; the sender still sees theirs as sent.
    if (await this.world.record(instanceId, WORLD_KINDS.blocklist, from)) return { id: newMessageId() };
    const record = await this.store.recordMessage(instanceId, {
      id: newMessageId(),
      direction: 'inbound',
      chatJid: chatId,
      senderJid: from,
      type: inbound.type,
      content: inbound.content,
    });
    if (inbound.effect) {
      const target = await this.store.message(instanceId, inbound.effect.targetId);
      if (target) {
        const content = { ...target.content };
        inbound.effect.apply(content);
        await this.store.updateContent(instanceId, target.id, content);
      }
    }
    if (spec.pushName) {
      // As on the network: a message carries its sender's push name, and a changed one is announced first.
      const before = await this.store.setPushName(instanceId, from, spec.pushName);
      if (before !== spec.pushName)
        session.deliver(normalise.chatPushName({ user: await this.party(instanceId, from), pushName: spec.pushName }));
    }
    const sender = await this.store.contact(instanceId, from);
    // A message carries its sender's push name and, for a business, its verified name.
    session.learn({
      contacts: [
        {
          jid: from,
          ...(sender?.lid ? { lid: sender.lid } : {}),
          ...(spec.pushName ? { pushName: spec.pushName } : {}),
          ...(sender?.businessName ? { businessName: sender.businessName } : {}),
        },
      ],
    });
    session.deliver(normalise.message(await this.messageInput(instanceId, record)));
    return { id: record.id };
  }

  /** The recipient's phone reports a message delivered, read or played; in a group, `from` is the member. */
  async receipt(
    instanceId: string,
    args: { messageId: string; status: 'delivered' | 'read' | 'played'; from?: string },
  ): Promise<{ id: string }> {
    const session = this.openSession(instanceId);
    const message = await this.store.message(instanceId, args.messageId);
    if (!message || message.direction !== 'outbound') throw new AppError('not_found');
    let reader = message.chatJid;
    if (args.from !== undefined) {
      const from = normaliseUserId(args.from);
      if (!from) throw AppError.validation('from must be a user JID or an international number');
      reader = from;
    } else if (jidKind(message.chatJid) === 'group') {
      throw AppError.validation('from is required for a message in a group');
    }
    await this.store.setMessageStatus(instanceId, args.messageId, args.status);
    session.deliver(
      normalise.messageRead({
        chatId: message.chatJid,
        reader: { ...(await this.party(instanceId, reader)), isMe: false },
        messageSender: { jid: message.senderJid, isMe: true },
        messageIds: [message.id],
        time: new Date(),
        receiptType: args.status,
      }),
    );
    return { id: args.messageId };
  }

  /** The network takes a message (or an edit, delete or reaction) from the instance. */
  async receive(instanceId: string, message: OutboundMessage): Promise<SentMessage> {
    const self = await this.selfJid(instanceId);
    if (isMessageAction(message)) {
      await this.applyOperation(instanceId, self, message, message.kind);
      return {};
    }
    const record = {
      id: message.id,
      direction: 'outbound' as const,
      chatJid: message.chatJid,
      senderJid: self,
      type: message.kind,
      content: this.rendered(message),
    };
    await this.store.receiveOnce(instanceId, record);
    return { ownMessage: await this.ownMessage(instanceId, self, { ...record, seq: 0n, status: 'sent', at: new Date() }) };
  }

  /** The sender's own copy of a message it sent, as its linked devices see it (people by JID; LIDs need no lookup). */
  private async ownMessage(instanceId: string, self: string, record: SandboxMessageRecord): Promise<SentMessage['ownMessage']> {
    const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
    const quoted = replyTo ? await this.store.message(instanceId, replyTo) : null;
    const input = storedMessageInput(record, { self, party: (jid) => ({ jid }), lookup: (id) => (quoted?.id === id ? quoted : undefined) });
    return input ? normalise.message(input) : undefined;
  }

  /** The chat history the network holds, as `message_history_sync` events (per chat; deleted messages left out). */
  async historyEvents(instanceId: string): Promise<NormalisedEvent[]> {
    const [messages, party, self] = await Promise.all([
      this.store.messages(instanceId),
      this.partyResolver(instanceId),
      this.selfJid(instanceId),
    ]);
    const byId = new Map(messages.map((message) => [message.id, message]));
    const context: MessageContext = { self, party, lookup: (id) => byId.get(id) };
    const inputs = messages
      .filter((message) => !NOT_IN_HISTORY.has(message.type) && !message.content.deleted && !message.content.deletedForMe)
      .map((message) => storedMessageInput(message, context))
      .filter((input): input is MessageInput => input !== undefined);
    return normalise.messageHistorySync(inputs);
  }

  outbox(instanceId: string): Promise<SandboxMessageRecord[]> {
    return this.store.messages(instanceId, 'outbound');
  }

  /** The instance's session when its link is open; otherwise the network cannot reach it (503). */
  openSession(instanceId: string): SandboxSession {
    const session = this.sessions.get(instanceId);
    if (!session?.isOpen) throw new AppError('instance_unavailable');
    return session;
  }

  /** The instance's session, if any: it hears an event only while its link is open. */
  session(instanceId: string): SandboxSession | undefined {
    return this.sessions.get(instanceId);
  }

  async selfJid(instanceId: string): Promise<string> {
    const device = await this.store.device(instanceId);
    if (!device.phone || !device.deviceId) throw new AppError('device_not_paired');
    return `${device.phone}@s.whatsapp.net`;
  }

  /** A person with the LID the network knows for them. */
  async party(instanceId: string, jid: string): Promise<Party> {
    const contact = await this.store.contact(instanceId, jid);
    return contact?.lid ? { jid, lid: contact.lid } : { jid };
  }

  async actor(instanceId: string, jid: string, self: string): Promise<Actor> {
    return { ...(await this.party(instanceId, jid)), isMe: jid === self };
  }

  /** Resolves many people with one read of the address book. */
  async partyResolver(instanceId: string): Promise<(jid: string) => Party> {
    const lids = new Map((await this.store.contacts(instanceId)).filter((c) => c.lid).map((c) => [c.jid, c.lid as string]));
    return (jid) => (lids.has(jid) ? { jid, lid: lids.get(jid) } : { jid });
  }

  users(values: string[], field: string): string[] {
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

  /** A stored message as the normaliser takes it, with what it quotes and its people resolved. */
  async messageInput(instanceId: string, record: SandboxMessageRecord): Promise<MessageInput> {
    const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
    const [party, self, quoted] = await Promise.all([
      this.partyResolver(instanceId),
      this.selfJid(instanceId),
      replyTo ? this.store.message(instanceId, replyTo) : Promise.resolve(null),
    ]);
    const input = storedMessageInput(record, { self, party, lookup: (id) => (quoted?.id === id ? quoted : undefined) });
    if (!input) throw new Error(`message ${record.id} of type ${record.type} is not a message event`);
    return input;
  }

  /** What the recipient's phone gets: for media, the file's type, size and digest instead of how we obtained it. */
  private rendered(message: OutboundMessage): Record<string, unknown> {
    if (!message.media) return { ...message.payload };
    const { data, mimeType } = message.media;
    return { ...message.payload, media: { mimeType, size: data.length, sha256: createHash('sha256').update(data).digest('hex') } };
  }

  /**
   * Operations change the message they target, as the phones would show it: edits, deletes for everyone and pins
   * for the whole chat; reactions per reactor; read receipts towards the sender; stars and deletes-for-me only in
   * this instance's own view.
   */
  private async applyOperation(instanceId: string, self: string, message: OutboundMessage<Operation>, operation: Operation): Promise<void> {
    const targetId = message.payload.targetId;
    const target = await this.store.message(instanceId, targetId);
    if (!target || target.chatJid !== message.chatJid)
      throw new PermanentSendError(`message ${targetId} is unknown to the network in ${message.chatJid}`);
    if (AUTHOR_ONLY.has(operation) && target.senderJid !== self)
      throw new PermanentSendError(`message ${targetId} was not sent by this instance`);
    if (operation === 'read' && target.senderJid === self) {
      throw new PermanentSendError(`message ${targetId} was sent by this instance; only received messages are read`);
    }
    const content = { ...target.content };
    switch (message.kind) {
      case 'edit':
        Object.assign(content, { text: message.payload.text, edited: true });
        break;
      case 'delete':
        content.deleted = true;
        break;
      case 'reaction': {
        const reactions = { ...((content.reactions as Record<string, string> | undefined) ?? {}) };
        const emoji = message.payload.reaction;
        if (emoji) reactions[self] = emoji;
        else delete reactions[self];
        content.reactions = reactions;
        break;
      }
      case 'read':
        await this.store.setMessageStatus(instanceId, targetId, message.payload.receiptType ?? 'read');
        return;
      case 'star':
        content.starred = message.payload.starred !== false;
        break;
      case 'pin':
        if (message.payload.pinned === false) delete content.pinned;
        else content.pinned = { by: self, seconds: PIN_SECONDS[message.payload.pinExpiration ?? '7d'] };
        break;
      case 'delete_for_me':
        content.deletedForMe = true;
        break;
    }
    await this.store.updateContent(instanceId, targetId, content);
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
