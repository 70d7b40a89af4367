// Groups on the fake network: group metadata (create, query, participating), our device's group sends (the sender
// key distributed pairwise to each participant device, then one `skmsg` every member decrypts with it) and group
// messages from a participant, sent with its own sender key. Sender keys use Baileys' own group cipher.
import { randomBytes, randomInt } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js';
import { httpError, summariseNode } from './network.mjs';
import { peerAddress } from './signal-party.mjs';

const { proto, getBinaryNodeChild, getBinaryNodeChildren, addTransactionCapability, encodeWAMessage, unpadRandomMax16, jidNormalizedUser } =
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

export class Groups {
  constructor(network) {
    this.network = network;
    this.groups = new Map();
    this.repositories = new Map();
  }

  /** The sender-key store of a party (a contact or an account's phone). */
  repositoryOf(party) {
    if (!this.repositories.has(party)) this.repositories.set(party, senderKeyRepository());
    return this.repositories.get(party);
  }

  create(subject, creator, participantJids) {
    const id = `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}@g.us`;
    const members = [...new Set([creator, ...participantJids.map((jid) => jidNormalizedUser(jid))])];
    const group = {
      id,
      subject,
      creator,
      creation: nowSeconds(),
      participants: members.map((jid) => ({ jid, admin: jid === creator ? 'superadmin' : undefined })),
    };
    this.groups.set(id, group);
    return group;
  }

  groupOf(id) {
    const group = this.groups.get(id);
    if (!group) throw httpError(404, `no group ${id}`);
    return group;
  }

  metadataNode(group) {
    return {
      tag: 'group',
      attrs: {
        id: group.id.split('@')[0],
        subject: group.subject,
        s_t: group.creation,
        s_o: group.creator,
        creation: group.creation,
        creator: group.creator,
        addressing_mode: 'pn',
        size: String(group.participants.length),
      },
      content: group.participants.map(({ jid, admin }) => ({ tag: 'participant', attrs: { jid, ...(admin ? { type: admin } : {}) } })),
    };
  }

  iq(connection, node) {
    if (node.attrs.xmlns !== 'w:g2' || !['get', 'set'].includes(node.attrs.type)) return false;
    const create = getBinaryNodeChild(node, 'create');
    if (create) {
      const participants = getBinaryNodeChildren(create, 'participant').map(({ attrs }) => attrs.jid);
      const group = this.create(create.attrs.subject, connection.device.account.jid, participants);
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
   * Our device's message to a group: each participant device decrypts its pairwise copy (the sender key distribution
   * message) and keeps the sender key; then every member's phone decrypts the one `skmsg` with the key it holds.
   */
  async message(connection, node) {
    if (!node.attrs.to?.endsWith('@g.us')) return false;
    const group = this.groups.get(node.attrs.to);
    const author = connection.device.jid;
    const base = { id: node.attrs.id, to: node.attrs.to, from: author, type: node.attrs.type, attrs: { ...node.attrs } };
    const extras = (node.content ?? []).filter((item) => !['participants', 'enc', 'device-identity'].includes(item.tag)).map(summariseNode);
    const distributed = new Map();
    for (const recipient of getBinaryNodeChildren(getBinaryNodeChild(node, 'participants'), 'to')) {
      const owner = this.network.partyOf(recipient.attrs.jid);
      const enc = getBinaryNodeChild(recipient, 'enc');
      if (!owner || !enc) continue;
      try {
        const message = await owner.phone0.decrypt(peerAddress(connection.device), enc.attrs.type, enc.content);
        const skdm = message.senderKeyDistributionMessage;
        if (skdm) await this.repositoryOf(owner).processSenderKeyDistributionMessage({ item: skdm, authorJid: author });
        distributed.set(owner, { recipient: recipient.attrs.jid, encType: enc.attrs.type, groupId: skdm?.groupId });
      } catch (error) {
        distributed.set(owner, { recipient: recipient.attrs.jid, encType: enc.attrs.type, error: String(error?.message ?? error) });
      }
    }
    const skmsg = getBinaryNodeChildren(node, 'enc').find((enc) => enc.attrs.type === 'skmsg');
    for (const { jid } of group?.participants ?? []) {
      const found = this.network.userOf(jid);
      const owner = found?.contact ?? found?.account;
      if (!owner) continue;
      const entry = { ...base, recipient: jid, encType: 'skmsg', distribution: distributed.get(owner) ?? null, extras };
      try {
        if (!skmsg) throw new Error('no skmsg in the message');
        const plaintext = await this.repositoryOf(owner).decryptGroupMessage({
          group: node.attrs.to,
          authorJid: author,
          msg: skmsg.content,
        });
        entry.message = proto.Message.toObject(proto.Message.decode(unpadRandomMax16(plaintext)), {
          longs: String,
          bytes: String,
          enums: String,
          defaults: false,
        });
      } catch (error) {
        entry.error = String(error?.message ?? error);
      }
      owner.inbox.push(entry);
    }
    connection.send({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } });
    return true;
  }

  /** A member's phone sends a text to the group: its sender key goes pairwise to our device with the `skmsg`. */
  async sendFromMember(contact, group, device, message) {
    const repository = this.repositoryOf(contact);
    const { ciphertext, senderKeyDistributionMessage } = await repository.encryptGroupMessage({
      group: group.id,
      meId: contact.jid,
      data: encodeWAMessage(proto.Message.fromObject(message)),
    });
    const distribution = await contact.phone0.encrypt(
      peerAddress(device),
      proto.Message.fromObject({
        senderKeyDistributionMessage: { groupId: group.id, axolotlSenderKeyDistributionMessage: senderKeyDistributionMessage },
      }),
      () => device.bundle(),
    );
    const id = `3A${randomBytes(9).toString('hex').toUpperCase()}`;
    this.network.deliver(device, {
      tag: 'message',
      attrs: {
        from: group.id,
        participant: contact.jid,
        participant_lid: contact.lid,
        addressing_mode: 'pn',
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
        const group = groups.create(String(body.subject), creator.jid, body.participants ?? []);
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
        return groups.sendFromMember(contact, groups.groupOf(body.group), device, body.message);
      },
    ],
  ];
}
