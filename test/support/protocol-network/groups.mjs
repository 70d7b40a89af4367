// Groups on the fake network: group metadata (create, query, participating), our device's group sends (the sender
// key distributed pairwise to each participant device, then one `skmsg` every member device decrypts with it) and group
// messages from a participant, sent with its own sender key. Sender keys use Baileys' own group cipher.
//
// A group is addressed by phone number (`pn`: participants by PN with `lid` alongside) or by LID (`lid`: participants by
// LID with `phone_number` alongside), as rc14 `Socket/groups.js` extractGroupMetadata reads them. Every device of every
// member holds its own sender keys; one that cannot decrypt our `skmsg` asks for it again with a retry receipt (the
// shape rc14 `messages-recv.js` sendRetryRequest sends and handleReceipt reads), and our targeted resend (a pairwise
// copy carrying the sender key, `participant` naming the device: rc14 `messages-send.js` relayMessage) is decrypted.
// Changes members and admins make reach our devices as `w:gp2` notifications (rc14 `messages-recv.js`
// handleGroupNotification): add, remove, promote, demote, subject, announcement / not_announcement.
import { randomBytes, randomInt } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js';
import { httpError, summariseNode } from './network.mjs';
import { peerAddress } from './signal-party.mjs';

const { proto, getBinaryNodeChild, getBinaryNodeChildren, addTransactionCapability, encodeWAMessage, unpadRandomMax16, encodeBigEndian } =
  baileys;

const silent = { level: 'silent', trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** A Baileys Signal repository over memory: what one party keeps of the group sender keys it holds. */
function senderKeyRepository() {
  const rows = new Map();
  const store = {
    async get(type, ids) {
      return Object.fromEntries(ids.filter((id) => rows.has(`${type}/${id}`)).map((id) => [id, rows.get(`${type}/${id}`)]));
    },
    async set(data) {
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values)) value ? rows.set(`${type}/${id}`, value) : rows.delete(`${type}/${id}`);
      }
    },
  };
  const keys = addTransactionCapability(store, silent, { maxCommitRetries: 1, delayBetweenTriesMs: 1 });
  return makeLibSignalRepository({ creds: {}, keys }, silent, async () => []);
}

const toObject = (message) => proto.Message.toObject(message, { longs: String, bytes: String, enums: String, defaults: false });
/** How often a member device asks for a message it could not decrypt (WA clients stop after a few tries). */
const MAX_RETRIES = 2;
const CHANGES = ['add', 'remove', 'promote', 'demote', 'subject', 'announce'];

export class Groups {
  constructor(network) {
    this.network = network;
    this.groups = new Map();
    /** Sender-key stores, one per device (a SignalParty of a contact's device or of an account's phone). */
    this.repositories = new Map();
    /** Retry receipts sent per `message id|device`. */
    this.retries = new Map();
  }

  /** The sender-key store of one device. */
  repositoryOf(party) {
    if (!this.repositories.has(party)) this.repositories.set(party, senderKeyRepository());
    return this.repositories.get(party);
  }

  /** The contact or account behind a member JID (either identity, any device). */
  ownerOf(jid) {
    const found = this.network.userOf(jid);
    return found?.contact ?? found?.account;
  }

  /** A user (or one of its devices) as the group addresses it. */
  addressed(group, owner, deviceId = 0) {
    const user = group.addressing === 'lid' ? owner.lid : owner.jid;
    return deviceId ? user.replace('@', `:${deviceId}@`) : user;
  }

  /** Every device of a member the server fans a group message out to: a contact's devices, an account's phone. */
  devicesOf(owner) {
    return owner.devices ? [...owner.devices.entries()] : [[0, owner.phone0]];
  }

  create(subject, creator, participantJids, addressing = 'pn') {
    const id = `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}@g.us`;
    const owners = [creator, ...participantJids].map((jid) => this.ownerOf(jid));
    const unknown = participantJids.filter((jid) => !this.ownerOf(jid));
    if (unknown.length) throw httpError(404, `not on the network: ${unknown.join(', ')}`);
    const members = [...new Set(owners.map((owner) => owner.jid))];
    const group = {
      id,
      subject,
      creator: owners[0].jid,
      creation: nowSeconds(),
      addressing,
      announce: false,
      participants: members.map((jid) => ({ jid, admin: jid === owners[0].jid ? 'superadmin' : undefined })),
    };
    this.groups.set(id, group);
    return group;
  }

  groupOf(id) {
    const group = this.groups.get(id);
    if (!group) throw httpError(404, `no group ${id}`);
    return group;
  }

  /** A participant node: by LID with `phone_number`, or by phone number with `lid`, and its role. */
  participantNode(group, { jid, admin }) {
    const owner = this.ownerOf(jid);
    const ids = group.addressing === 'lid' ? { jid: owner.lid, phone_number: owner.jid } : { jid: owner.jid, lid: owner.lid };
    return { tag: 'participant', attrs: { ...ids, ...(admin ? { type: admin } : {}) } };
  }

  metadataNode(group) {
    const creator = this.ownerOf(group.creator);
    const creatorAttrs = group.addressing === 'lid' ? { creator: creator.lid, creator_pn: creator.jid } : { creator: creator.jid };
    return {
      tag: 'group',
      attrs: {
        id: group.id.split('@')[0],
        subject: group.subject,
        s_t: group.creation,
        s_o: this.addressed(group, creator),
        creation: group.creation,
        ...creatorAttrs,
        addressing_mode: group.addressing,
        size: String(group.participants.length),
      },
      content: [
        ...group.participants.map((participant) => this.participantNode(group, participant)),
        ...(group.announce ? [{ tag: 'announcement', attrs: {} }] : []),
      ],
    };
  }

  iq(connection, node) {
    if (node.attrs.xmlns !== 'w:g2' || !['get', 'set'].includes(node.attrs.type)) return false;
    const create = getBinaryNodeChild(node, 'create');
    if (create) {
      const participants = getBinaryNodeChildren(create, 'participant').map(({ attrs }) => attrs.jid);
      // New groups take the network's addressing: LID-addressed where the network addresses chats by LID.
      const group = this.create(create.attrs.subject, connection.device.account.jid, participants, this.network.addressing);
      connection.result(node, [this.metadataNode(group)]);
    } else if (getBinaryNodeChild(node, 'participating')) {
      const account = connection.device.account.jid;
      const mine = [...this.groups.values()].filter((group) => group.participants.some(({ jid }) => jid === account));
      connection.result(node, [{ tag: 'groups', attrs: {}, content: mine.map((group) => this.metadataNode(group)) }]);
    } else if (getBinaryNodeChild(node, 'query') && this.groups.has(node.attrs.to)) {
      connection.result(node, [this.metadataNode(this.groups.get(node.attrs.to))]);
    } else {
      connection.send({
        tag: 'iq',
        attrs: { from: node.attrs.to, type: 'error', id: node.attrs.id },
        content: [{ tag: 'error', attrs: { code: '404', text: 'item-not-found' } }],
      });
    }
    return true;
  }

  /**
   * Our device's message to a group: each device named in `participants` decrypts its pairwise copy (the sender key
   * distribution message) and keeps the sender key; then every device of every member decrypts the one `skmsg` with
   * the key it holds, or asks for the message again. A stanza with `participant` is our answer to such a retry: one
   * pairwise copy for that device, the sender key inside.
   */
  async message(connection, node) {
    if (!node.attrs.to?.endsWith('@g.us')) return false;
    const group = this.groups.get(node.attrs.to);
    // rc14 relayMessage encrypts with our LID identity in a LID-addressed group, with our phone number otherwise.
    const author = group?.addressing === 'lid' ? connection.device.lid : connection.device.jid;
    const base = { id: node.attrs.id, to: node.attrs.to, from: author, type: node.attrs.type, attrs: { ...node.attrs } };
    const extras = (node.content ?? []).filter((item) => !['participants', 'enc', 'device-identity'].includes(item.tag)).map(summariseNode);
    const pairwise = getBinaryNodeChildren(getBinaryNodeChild(node, 'participants'), 'to').map((to) => ({
      jid: to.attrs.jid,
      enc: getBinaryNodeChild(to, 'enc'),
    }));
    const direct = getBinaryNodeChildren(node, 'enc').find((enc) => enc.attrs.type !== 'skmsg');
    if (node.attrs.participant && direct) pairwise.push({ jid: node.attrs.participant, enc: direct });
    const distributed = new Map();
    for (const { jid, enc } of pairwise) {
      const { owner, party, deviceId } = this.network.deviceParty(jid) ?? {};
      if (!owner || !enc) continue;
      const copy = { recipient: jid, encType: enc.attrs.type };
      try {
        if (!party) throw new Error(`no device ${deviceId}: the server refused the copy for it`);
        const message = await party.decrypt(peerAddress(connection.device), enc.attrs.type, enc.content);
        const skdm = message.senderKeyDistributionMessage;
        if (skdm) await this.repositoryOf(party).processSenderKeyDistributionMessage({ item: skdm, authorJid: author });
        copy.groupId = skdm?.groupId;
        if (node.attrs.participant) {
          // The resend: the message itself travels in the pairwise copy, next to the sender key.
          const { senderKeyDistributionMessage: _key, ...content } = toObject(message);
          owner.inbox.push({
            ...base,
            recipient: jid,
            device: deviceId,
            encType: enc.attrs.type,
            encAttrs: { ...enc.attrs },
            // rc14 puts the resend in one stanza twice: the copy with the retry count and our sender key, and a plain
            // copy under `participants` (its one-to-one fan-out also runs for a resend); each is decrypted in turn.
            retry: enc.attrs.count === undefined ? null : Number(enc.attrs.count),
            extras,
            message: content,
          });
        }
      } catch (error) {
        copy.error = String(error?.message ?? error);
        if (node.attrs.participant)
          owner.inbox.push({ ...base, recipient: jid, device: deviceId, encType: enc.attrs.type, extras, error: copy.error });
      }
      if (party) distributed.set(party, copy);
      // Our sender key sent to someone outside the group (a member our device still lists after a removal): the
      // pairwise copy is delivered like any other, so the key leaks; the entry shows it (the skmsg never follows).
      const isMember = group?.participants.some((participant) => participant.jid === owner.jid);
      if (group && !isMember && !node.attrs.participant) {
        owner.inbox.push({
          ...base,
          recipient: jid,
          device: deviceId,
          encType: enc.attrs.type,
          distribution: copy,
          notMember: true,
          extras,
        });
      }
    }
    const skmsg = getBinaryNodeChildren(node, 'enc').find((enc) => enc.attrs.type === 'skmsg');
    const failed = [];
    for (const { jid } of skmsg ? (group?.participants ?? []) : []) {
      const owner = this.ownerOf(jid);
      if (!owner) continue;
      for (const [deviceId, party] of this.devicesOf(owner)) {
        const recipient = this.addressed(group, owner, deviceId);
        const entry = { ...base, recipient, device: deviceId, encType: 'skmsg', distribution: distributed.get(party) ?? null, extras };
        try {
          const plaintext = await this.repositoryOf(party).decryptGroupMessage({ group: group.id, authorJid: author, msg: skmsg.content });
          entry.message = toObject(proto.Message.decode(unpadRandomMax16(plaintext)));
        } catch (error) {
          entry.error = String(error?.message ?? error);
          failed.push({ owner, deviceId, party, recipient });
        }
        owner.inbox.push(entry);
      }
    }
    connection.send({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } });
    for (const device of failed) this.askAgain(connection, group, node, device);
    return true;
  }

  /**
   * A member device that could not decrypt our message asks for it again, as a WhatsApp client does: the server
   * forwards its retry receipt to our device with the group in `from` and the device in `participant`.
   */
  askAgain(connection, group, node, { owner, deviceId, party, recipient }) {
    const key = `${node.attrs.id}|${recipient}`;
    const count = (this.retries.get(key) ?? 0) + 1;
    if (count > MAX_RETRIES) return;
    this.retries.set(key, count);
    const t = nowSeconds();
    const alt = group.addressing === 'lid' ? { participant_pn: owner.jid } : { participant_lid: owner.lid };
    connection.send({
      tag: 'receipt',
      attrs: { from: group.id, participant: recipient, id: node.attrs.id, type: 'retry', t, ...alt },
      content: [
        { tag: 'retry', attrs: { count: String(count), id: node.attrs.id, t, v: '1', error: '0' } },
        { tag: 'registration', attrs: {}, content: encodeBigEndian(party.registrationId, 4) },
      ],
    });
    owner.retriesAsked = [...(owner.retriesAsked ?? []), { id: node.attrs.id, group: group.id, device: deviceId, count }];
  }

  /** A member's device sends a text to the group: its sender key goes pairwise to our device with the `skmsg`. */
  async sendFromMember(contact, group, device, message, fromDevice = 0) {
    const party = contact.devices.get(Number(fromDevice));
    if (!party) throw httpError(404, `${contact.phone} has no device ${fromDevice}`);
    const participant = this.addressed(group, contact, Number(fromDevice));
    const repository = this.repositoryOf(party);
    const { ciphertext, senderKeyDistributionMessage } = await repository.encryptGroupMessage({
      group: group.id,
      meId: participant,
      data: encodeWAMessage(proto.Message.fromObject(message)),
    });
    const distribution = await party.encrypt(
      peerAddress(device),
      proto.Message.fromObject({
        senderKeyDistributionMessage: { groupId: group.id, axolotlSenderKeyDistributionMessage: senderKeyDistributionMessage },
      }),
      () => device.bundle(),
    );
    const id = `3A${randomBytes(9).toString('hex').toUpperCase()}`;
    const alt = group.addressing === 'lid' ? { participant_pn: contact.jid } : { participant_lid: contact.lid };
    this.network.deliver(device, {
      tag: 'message',
      attrs: {
        from: group.id,
        participant,
        ...alt,
        addressing_mode: group.addressing,
        id,
        t: nowSeconds(),
        type: 'text',
        notify: contact.name,
      },
      content: [
        { tag: 'enc', attrs: { v: '2', type: distribution.type }, content: distribution.ciphertext },
        { tag: 'enc', attrs: { v: '2', type: 'skmsg' }, content: ciphertext },
      ],
    });
    return { id };
  }

  /**
   * A member (`by`: a contact's or an account's phone number) changes the group; the server applies it and tells the
   * group's linked devices with a `w:gp2` notification, the acting member in `participant` (its other identity
   * alongside), the change as the one child.
   */
  change(group, { by, action, participants = [], subject, announce }) {
    if (!CHANGES.includes(action)) throw httpError(400, `action must be one of ${CHANGES.join(', ')}`);
    const actor = this.ownerOf(`${by}@s.whatsapp.net`);
    if (!actor) throw httpError(404, `no contact or account ${by}`);
    const owners = participants.map((phone) => {
      const owner = this.ownerOf(`${phone}@s.whatsapp.net`);
      if (!owner) throw httpError(404, `no contact or account ${phone}`);
      return owner;
    });
    const isMember = (owner) => group.participants.some(({ jid }) => jid === owner.jid);
    const before = group.participants.map(({ jid }) => this.ownerOf(jid));
    let child;
    switch (action) {
      case 'add':
        if (owners.some(isMember)) throw httpError(409, 'already a member');
        group.participants.push(...owners.map((owner) => ({ jid: owner.jid, admin: undefined })));
        child = { tag: 'add', attrs: {}, content: owners.map((owner) => this.participantNode(group, { jid: owner.jid })) };
        break;
      case 'remove':
        if (!owners.every(isMember)) throw httpError(409, 'not a member');
        group.participants = group.participants.filter(({ jid }) => !owners.some((owner) => owner.jid === jid));
        child = { tag: 'remove', attrs: {}, content: owners.map((owner) => this.participantNode(group, { jid: owner.jid })) };
        break;
      case 'promote':
      case 'demote':
        if (!owners.every(isMember)) throw httpError(409, 'not a member');
        for (const participant of group.participants) {
          if (owners.some((owner) => owner.jid === participant.jid)) participant.admin = action === 'promote' ? 'admin' : undefined;
        }
        child = { tag: action, attrs: {}, content: owners.map((owner) => this.participantNode(group, { jid: owner.jid })) };
        break;
      case 'subject':
        group.subject = String(subject);
        child = { tag: 'subject', attrs: { subject: group.subject, s_o: this.addressed(group, actor), s_t: nowSeconds() } };
        break;
      case 'announce':
        group.announce = Boolean(announce);
        child = { tag: group.announce ? 'announcement' : 'not_announcement', attrs: {} };
        break;
    }
    const alt = group.addressing === 'lid' ? { participant_pn: actor.jid } : { participant_lid: actor.lid };
    // Everyone who was or is a member hears of it (a removed member learns it was removed).
    const told = new Set([...before, ...group.participants.map(({ jid }) => this.ownerOf(jid))]);
    for (const device of this.network.devices.filter((d) => d.linked && told.has(d.account))) {
      this.network.deliver(device, {
        tag: 'notification',
        attrs: {
          from: group.id,
          type: 'w:gp2',
          id: this.network.stanzaId(),
          t: nowSeconds(),
          participant: this.addressed(group, actor),
          ...alt,
          addressing_mode: group.addressing,
          notify: actor.name ?? actor.phone,
        },
        content: [child],
      });
    }
    return { id: group.id, participants: group.participants };
  }
}

export function groupHandlers(groups) {
  return { iq: (connection, node) => groups.iq(connection, node), message: (connection, node) => groups.message(connection, node) };
}

export function groupRoutes(network, groups) {
  return [
    [
      /^POST \/groups$/,
      ({ body }) => {
        const creator = network.contacts.get(String(body.creator)) ?? network.accounts.get(String(body.creator));
        if (!creator) throw httpError(404, `no contact or account ${body.creator}`);
        const addressing = body.addressing ?? 'pn';
        if (!['pn', 'lid'].includes(addressing)) throw httpError(400, 'addressing must be pn or lid');
        const group = groups.create(String(body.subject), creator.jid, body.participants ?? [], addressing);
        return { id: group.id };
      },
    ],
    [/^GET \/groups$/, () => [...groups.groups.values()]],
    [
      /^POST \/groups\/send$/,
      ({ body }) => {
        const contact = network.contacts.get(String(body.from));
        if (!contact) throw httpError(404, `no contact ${body.from}`);
        const device = network.deviceByJid(body.to);
        if (!device) throw httpError(404, `no device ${body.to}`);
        return groups.sendFromMember(contact, groups.groupOf(body.group), device, body.message, body.fromDevice ?? 0);
      },
    ],
    [/^POST \/groups\/change$/, ({ body }) => groups.change(groups.groupOf(body.group), body)],
    [
      /^GET \/groups\/retries$/,
      ({ query }) => {
        const contact = network.contacts.get(String(query.get('phone')));
        if (!contact) throw httpError(404, `no contact ${query.get('phone')}`);
        return contact.retriesAsked ?? [];
      },
    ],
  ];
}
