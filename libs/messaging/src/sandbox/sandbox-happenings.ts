import { Injectable } from '@nestjs/common';
import {
  AppError,
  jidKind,
  newMessageId,
  normaliseChatId,
  normaliseUserId,
  type CommandArgs,
  type EphemeralTimer,
  type SandboxChatSettingSpec,
  type SandboxGroupChangeSpec,
  type SandboxProfileSpec,
} from '@app/contracts';
import {
  SandboxRepository,
  type SandboxChatSettings,
  type SandboxGroupRecord,
  type SandboxGroupUpdate,
  type SandboxMessageRecord,
} from '@app/database';
import { normalise, type Actor, type ChatSettingInput } from '../events/normalise';
import { callId, newsletterJid, pictureId } from './codes';
import { SandboxCommunityMembership } from './sandbox-community-membership';
import { SandboxLinks } from './sandbox-links';
import { SandboxPeople } from './sandbox-people';

const EPHEMERAL_SECONDS: Record<EphemeralTimer, number> = { off: 0, '24h': 86_400, '7d': 604_800, '90d': 7_776_000 };
const GROUP_CHANGES = ['join', 'leave', 'promote', 'demote', 'name', 'topic', 'locked', 'announce', 'picture'] as const;
/** Changes only admins may make; name, topic and picture too while the group is locked. */
const ADMIN_CHANGES = new Set<string>(['join', 'promote', 'demote', 'locked', 'announce']);
const INFO_CHANGES = new Set<string>(['name', 'topic', 'picture']);

interface Call {
  caller: string;
  accepted: boolean;
}

/**
 * What happens on the simulated network besides messages arriving: the account owner's phone (stars, deletes,
 * chat settings, channels, answering calls) and contacts (presence, profile changes, group changes, calls).
 * Each happening updates the network's state and reaches the instance as the event the real network would cause.
 */
@Injectable()
export class SandboxHappenings {
  /** Calls ringing or in progress, per instance. A call does not outlive its worker, as a real one drops with its link. */
  private readonly calls = new Map<string, Map<string, Call>>();

  constructor(
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly membership: SandboxCommunityMembership,
  ) {}

  /** The author deletes a message for everyone, or the phone deletes it only for this account. */
  async deleteMessage(instanceId: string, args: CommandArgs<'sandbox.delete'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const message = await this.store.message(instanceId, args.messageId);
    if (!message) throw new AppError('not_found');
    await this.store.updateContent(instanceId, message.id, {
      ...message.content,
      ...(args.forEveryone ? { deleted: true } : { deletedForMe: true }),
    });
    const author = await this.author(instanceId, message);
    session.deliver(
      normalise.messageDelete({ id: message.id, chatId: message.chatJid, sender: author, time: new Date(), forEveryone: args.forEveryone }),
    );
    return { id: message.id };
  }

  /**
   * A contact edits the text of a message it sent: the chat gets the edit as a message of its own (a new id) that names
   * the original, and the stored message shows the new text, as the phones would.
   */
  async editMessage(instanceId: string, args: CommandArgs<'sandbox.edit'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const message = await this.store.message(instanceId, args.messageId);
    if (!message) throw new AppError('not_found');
    if (message.direction !== 'inbound')
      throw AppError.validation(`message ${message.id} was sent by this instance; only the contact's own messages are edited here`);
    if (message.content.deleted === true) throw AppError.validation(`message ${message.id} was deleted for everyone`);
    if (message.type !== 'text') throw AppError.validation(`message ${message.id} is a ${message.type} message; only text is edited`);
    await this.store.updateContent(instanceId, message.id, { ...message.content, text: args.text, edited: true });
    const id = newMessageId();
    session.deliver(
      normalise.message({
        id,
        time: new Date(),
        chatId: message.chatJid,
        sender: await this.author(instanceId, message),
        content: { type: 'text', text: args.text },
        edit: { originalMessageId: message.id, originalTime: message.at },
      }),
    );
    return { id };
  }

  /** The phone stars or unstars a message. */
  async star(instanceId: string, args: CommandArgs<'sandbox.star'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const message = await this.store.message(instanceId, args.messageId);
    if (!message) throw new AppError('not_found');
    const content: Record<string, unknown> = { ...message.content, starred: true };
    if (!args.starred) delete content.starred;
    await this.store.updateContent(instanceId, message.id, content);
    const author = await this.author(instanceId, message);
    session.deliver(
      normalise.messageStar({ id: message.id, chatId: message.chatJid, sender: author, time: new Date(), starred: args.starred }),
    );
    return { id: message.id };
  }

  /** A contact comes online or goes offline (`user_presence`), or types, records or stops in a chat (`chat_presence`). */
  async presence(instanceId: string, args: CommandArgs<'sandbox.presence'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const from = args.from;
    const user = await this.people.party(instanceId, from);
    if (args.state === 'available' || args.state === 'unavailable') {
      if (args.chatId !== undefined) throw AppError.validation(`chatId does not apply to ${args.state}`);
      const available = args.state === 'available';
      session.deliver(normalise.userPresence({ user, available, lastSeen: available ? undefined : new Date() }));
      return { id: from };
    }
    const chatId = args.chatId === undefined ? from : this.chat(args.chatId);
    session.deliver(normalise.chatPresence({ chatId, sender: { ...user, isMe: false }, state: args.state }));
    return { id: from };
  }

  /** The phone changes a chat's setting; a disappearing-message timer may also be set by a contact (`from`). */
  async chatSetting(instanceId: string, spec: SandboxChatSettingSpec): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const chatId = this.chat(spec.chatId);
    const self = await this.people.selfJid(instanceId);
    const { setting, stored } = await this.setting(instanceId, spec, self);
    await this.store.updateChat(instanceId, chatId, stored);
    session.deliver(normalise.chatSetting({ chatId, setting }));
    return { id: chatId };
  }

  /** A contact changes their push name, about text or profile picture; one event per change, in that order. */
  async profile(instanceId: string, spec: SandboxProfileSpec): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const jid = spec.id;
    if (spec.pushName === undefined && spec.about === undefined && !spec.picture)
      throw AppError.validation('at least one of pushName, about and picture is required');
    const user = await this.people.party(instanceId, jid);
    if (spec.pushName !== undefined) {
      await this.store.setPushName(instanceId, jid, spec.pushName);
      session.deliver(normalise.chatPushName({ user, pushName: spec.pushName }));
    }
    if (spec.about !== undefined) session.deliver(normalise.chatStatus({ user, status: spec.about }));
    if (spec.picture) session.deliver(normalise.chatPicture({ chatId: jid, sender: { ...user, isMe: false }, pictureId: pictureId() }));
    return { id: jid };
  }

  /**
   * A member (`by`, this account when left out) changes a group: adds or removes members, promotes or demotes
   * admins, renames it, changes its topic, settings or picture, with the rights the network demands.
   */
  async groupChange(instanceId: string, spec: SandboxGroupChangeSpec): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const groupId = normaliseChatId(spec.groupId);
    const group = groupId && jidKind(groupId) === 'group' ? await this.store.group(instanceId, groupId) : null;
    if (!group) throw new AppError('not_found');
    const change = this.singleChange(spec);
    const self = await this.people.selfJid(instanceId);
    const byJid = spec.by === undefined ? self : this.user(spec.by, 'by');
    const role = group.participants.find((member) => member.jid === byJid)?.role;
    if (!role) throw AppError.validation(`by ${byJid} is not a participant of ${group.jid}`);
    const isAdmin = role !== 'member';
    const removesOthers = change === 'leave' && !(spec.leave?.length === 1 && this.user(spec.leave[0], 'leave[0]') === byJid);
    if (!isAdmin && (ADMIN_CHANGES.has(change) || removesOthers || (group.locked && INFO_CHANGES.has(change))))
      throw AppError.validation(`by ${byJid} is not an admin of ${group.jid}`);

    const by = await this.people.actor(instanceId, byJid, self);
    const party = await this.people.partyResolver(instanceId);
    const at = new Date();
    const base = { groupId: group.jid, by, at };
    const update: SandboxGroupUpdate = {};
    switch (change) {
      case 'join': {
        const joining = this.members(spec.join ?? [], 'join', group, false);
        update.add = joining;
        await this.store.updateGroup(instanceId, group.jid, update);
        session.deliver(normalise.group({ ...base, join: joining.map(party) }));
        break;
      }
      case 'leave': {
        const leaving = this.members(spec.leave ?? [], 'leave', group, true);
        update.remove = leaving;
        await this.store.updateGroup(instanceId, group.jid, update);
        session.deliver(normalise.group({ ...base, leave: leaving.map(party) }));
        break;
      }
      case 'promote':
      case 'demote': {
        const members = this.members(spec[change] ?? [], change, group, true);
        update.roles = members.map((jid) => ({ jid, role: change === 'promote' ? 'admin' : 'member' }));
        await this.store.updateGroup(instanceId, group.jid, update);
        session.deliver(normalise.group({ ...base, [change]: members.map(party) }));
        break;
      }
      case 'name':
        await this.store.updateGroup(instanceId, group.jid, { name: spec.name });
        session.deliver(normalise.group({ ...base, name: spec.name }));
        break;
      case 'topic':
        await this.store.updateGroup(instanceId, group.jid, { description: spec.topic || null });
        session.deliver(normalise.group({ ...base, topic: spec.topic }));
        break;
      case 'locked':
        await this.store.updateGroup(instanceId, group.jid, { locked: spec.locked });
        session.deliver(normalise.group({ ...base, locked: spec.locked }));
        break;
      case 'announce':
        await this.store.updateGroup(instanceId, group.jid, { announce: spec.announce });
        session.deliver(normalise.group({ ...base, announce: spec.announce }));
        break;
      case 'picture': {
        const picture = pictureId();
        await this.store.updateGroup(instanceId, group.jid, { pictureId: picture });
        session.deliver(normalise.chatPicture({ chatId: group.jid, sender: by, pictureId: picture }));
        break;
      }
    }
    const changesMembers = change === 'join' || change === 'leave';
    if (changesMembers && group.parentJid && group.kind !== 'announcement')
      await this.membership.reconcile(instanceId, group.parentJid, by);
    return { id: group.jid };
  }

  /** The phone follows a channel. */
  async joinNewsletter(instanceId: string, args: CommandArgs<'sandbox.newsletterJoin'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const jid = newsletterJid();
    await this.store.joinNewsletter(instanceId, { jid, name: args.name, role: args.role });
    session.deliver(normalise.newsletter({ id: jid, action: 'join', name: args.name, role: args.role }));
    return { id: jid };
  }

  /** The phone stops following a channel. */
  async leaveNewsletter(instanceId: string, args: CommandArgs<'sandbox.newsletterLeave'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const newsletter = await this.store.newsletter(instanceId, args.id);
    if (!newsletter) throw new AppError('not_found');
    await this.store.leaveNewsletter(instanceId, args.id);
    session.deliver(normalise.newsletter({ id: args.id, action: 'leave', role: newsletter.role }));
    return { id: args.id };
  }

  /** The phone mutes or unmutes a channel. */
  async muteNewsletter(instanceId: string, args: CommandArgs<'sandbox.newsletterMute'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    if (!(await this.store.newsletter(instanceId, args.id))) throw new AppError('not_found');
    await this.store.muteNewsletter(instanceId, args.id, args.muted);
    session.deliver(normalise.newsletter({ id: args.id, action: 'mute', muted: args.muted }));
    return { id: args.id };
  }

  /**
   * A contact's message this device could not decrypt and never got again: what the real network reports once the
   * failure is final (`message_undecryptable`, `UndecryptableWatch`).
   */
  async undecryptable(instanceId: string, args: CommandArgs<'sandbox.undecryptable'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const id = newMessageId();
    const party = await this.people.party(instanceId, args.from);
    session.deliver(
      normalise.messageUndecryptable({
        id,
        chatId: args.from,
        sender: { ...party, isMe: false },
        time: new Date(),
        reason: args.reason,
        attempts: args.attempts,
      }),
    );
    return { id };
  }

  /** A contact calls this account, alone or from a group they are in. */
  async offerCall(instanceId: string, args: CommandArgs<'sandbox.callOffer'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const caller = args.from;
    let chatId: string | undefined;
    if (args.groupId !== undefined) {
      const groupId = normaliseChatId(args.groupId);
      const group = groupId && jidKind(groupId) === 'group' ? await this.store.group(instanceId, groupId) : null;
      if (!group) throw new AppError('not_found');
      if (!group.participants.some((member) => member.jid === caller))
        throw AppError.validation(`from ${caller} is not a participant of ${group.jid}`);
      chatId = group.jid;
    }
    const id = callId();
    this.callsOf(instanceId).set(id, { caller, accepted: false });
    session.deliver(
      normalise.callOffer({ id, caller: await this.people.party(instanceId, caller), chatId, time: new Date(), isVideo: args.video }),
    );
    return { id };
  }

  /** The phone answers a ringing call. */
  async acceptCall(instanceId: string, args: CommandArgs<'sandbox.callAccept'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const call = this.call(instanceId, args.id);
    if (call.accepted) throw AppError.validation(`call ${args.id} was already accepted`);
    call.accepted = true;
    session.deliver(normalise.callAccept({ id: args.id, caller: await this.people.party(instanceId, call.caller), time: new Date() }));
    return { id: args.id };
  }

  /** The call ends: hung up by either side (`ended`) or declined on the phone while ringing (`rejected`). */
  async endCall(instanceId: string, args: CommandArgs<'sandbox.callEnd'>): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const call = this.call(instanceId, args.id);
    if (args.reason === 'rejected' && call.accepted)
      throw AppError.validation(`call ${args.id} was accepted and can no longer be rejected`);
    this.callsOf(instanceId).delete(args.id);
    session.deliver(
      normalise.callTerminate({
        id: args.id,
        caller: await this.people.party(instanceId, call.caller),
        time: new Date(),
        reason: args.reason,
      }),
    );
    return { id: args.id };
  }

  /** This account declines a ringing call; `callerId` must name the caller, by phone JID or LID. */
  async rejectCall(instanceId: string, id: string, callerId: string): Promise<void> {
    const call = this.calls.get(instanceId)?.get(id);
    const caller = call ? await this.people.party(instanceId, call.caller) : undefined;
    if (!call || (caller?.jid !== callerId && caller?.lid !== callerId)) throw new AppError('not_found');
    if (call.accepted) throw AppError.validation(`call ${id} was already accepted; only a ringing call can be rejected`);
    await this.endCall(instanceId, { id, reason: 'rejected' });
  }

  private async author(instanceId: string, message: SandboxMessageRecord): Promise<Actor> {
    return { ...(await this.people.party(instanceId, message.senderJid)), isMe: message.direction === 'outbound' };
  }

  private callsOf(instanceId: string): Map<string, Call> {
    let calls = this.calls.get(instanceId);
    if (!calls) {
      calls = new Map();
      this.calls.set(instanceId, calls);
    }
    return calls;
  }

  private call(instanceId: string, id: string): Call {
    const call = this.calls.get(instanceId)?.get(id);
    if (!call) throw new AppError('not_found');
    return call;
  }

  /**
   * Ids checked after other refusals (the group, the change): checking them in the DTO would change which error comes
   * first. The ids checked first (`from` of presence and calls, `id` of profiles) arrive from the DTO as JIDs.
   */
  private user(value: string, field: string): string {
    const jid = normaliseUserId(value);
    if (!jid) throw AppError.validation(`${field} must be a user JID or an international number`);
    return jid;
  }

  private chat(value: string): string {
    const jid = normaliseChatId(value);
    if (!jid) throw AppError.validation('chatId must be a chat JID or an international number');
    return jid;
  }

  private singleChange(spec: SandboxGroupChangeSpec): (typeof GROUP_CHANGES)[number] {
    const given = GROUP_CHANGES.filter((field) => spec[field] !== undefined);
    if (given.length !== 1) throw AppError.validation(`exactly one change is required: one of ${GROUP_CHANGES.join(', ')}`);
    const change = given[0];
    if (change === 'picture' && spec.picture !== true) throw AppError.validation('picture must be true (a new picture)');
    const list = spec[change as 'join' | 'leave' | 'promote' | 'demote'];
    if (Array.isArray(list) && list.length === 0) throw AppError.validation(`${change} must name at least one member`);
    return change;
  }

  /** The members a change names: users, and participants of the group (or not, when joining). */
  private members(values: string[], field: string, group: SandboxGroupRecord, mustBeIn: boolean): string[] {
    const jids = this.people.users(values, field);
    for (const jid of jids) {
      const isIn = group.participants.some((member) => member.jid === jid);
      if (mustBeIn && !isIn) throw AppError.validation(`${field}: ${jid} is not a participant of ${group.jid}`);
      if (!mustBeIn && isIn) throw AppError.validation(`${field}: ${jid} is already a participant of ${group.jid}`);
    }
    return jids;
  }

  private async setting(
    instanceId: string,
    spec: SandboxChatSettingSpec,
    self: string,
  ): Promise<{ setting: ChatSettingInput; stored: SandboxChatSettings }> {
    if (spec.settingType === 'ephemeral') {
      if (spec.enabled !== undefined) throw AppError.validation('enabled does not apply to ephemeral; set expiration');
      if (spec.expiration === undefined) throw AppError.validation('expiration is required for an ephemeral setting');
      const seconds = EPHEMERAL_SECONDS[spec.expiration];
      const byJid = spec.from === undefined ? self : this.user(spec.from, 'from');
      const by: Actor = await this.people.actor(instanceId, byJid, self);
      return { setting: { type: 'ephemeral', seconds, by }, stored: { ephemeralSeconds: seconds } };
    }
    if (spec.expiration !== undefined || spec.from !== undefined)
      throw AppError.validation(`expiration and from apply only to ephemeral, not to ${spec.settingType}`);
    if (spec.enabled === undefined) throw AppError.validation(`enabled is required for a ${spec.settingType} setting`);
    if (spec.muteEndTime !== undefined && (spec.settingType !== 'mute' || !spec.enabled))
      throw AppError.validation('muteEndTime applies only when muting');
    const on = spec.enabled;
    switch (spec.settingType) {
      case 'mute': {
        const until = spec.muteEndTime === undefined ? undefined : new Date(spec.muteEndTime);
        return { setting: { type: 'mute', muted: on, until }, stored: { muted: on, muteEndTime: on ? (until ?? null) : null } };
      }
      case 'pin':
        return { setting: { type: 'pin', pinned: on }, stored: { pinned: on } };
      case 'read':
        return { setting: { type: 'read', read: on }, stored: { read: on } };
      case 'archive':
        return { setting: { type: 'archive', archived: on }, stored: { archived: on } };
    }
  }
}
