// Retry receipts on the fake network, both ways (issue 26, items 2 and 3).
//
// Toward us: a contact sends a message our device cannot decrypt (a ciphertext damaged in transit: the MAC fails, as a
// real "Bad MAC" does). Baileys answers with `<receipt type="retry">` (rc14 `sendRetryRequest`, messages-recv.js); the
// contact's phone honours it as a real phone does (whatsmeow `handleRetryReceipt`, retry.go): with the key bundle the
// receipt carries it starts a new session (`pkmsg`), from the 2nd attempt without one it fetches our bundle from the
// server, otherwise it re-encrypts on its session, and resends under the same id with `count` on the `<enc>`. A contact
// can also never resend, or resend copies that fail again.
//
// From us: a contact whose phone cannot decrypt what our device sent (it lost its session with our device, as after a
// reinstall) asks for it again with the receipt rc14's `sendRetryRequest` builds (`retry` count/id/t/v/error,
// `registration`, and from the 2nd attempt `keys`: type, identity, key, skey). Our device must resend it.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';
import { peerAddress } from './signal-party.mjs';

const { proto, getBinaryNodeChild, extractE2ESessionFromRetryReceipt, encodeBigEndian, xmppPreKey, KEY_BUNDLE_TYPE } = baileys;

// libsignal's own message encoding (a version byte, then protobuf), as its session cipher writes it.
const protobufs = createRequire(import.meta.url)('libsignal/src/protobufs.js');

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/**
 * A ciphertext damaged in transit: the last byte of a Signal message is the last byte of its MAC, which then fails to
 * verify ("Bad MAC"). A `pkmsg` wraps such a message; the wrapper stays intact around the damaged one.
 */
function damaged({ type, ciphertext }) {
  const flipLast = (bytes) => {
    const copy = Buffer.from(bytes);
    copy[copy.length - 1] ^= 0xff;
    return copy;
  };
  if (type === 'msg') return flipLast(ciphertext);
  const wrapper = protobufs.PreKeyWhisperMessage.decode(ciphertext.subarray(1));
  wrapper.message = flipLast(wrapper.message);
  return Buffer.concat([ciphertext.subarray(0, 1), protobufs.PreKeyWhisperMessage.encode(wrapper).finish()]);
}

export class Retries {
  constructor(network) {
    this.network = network;
    /** Messages contacts sent our devices that the tests made undecryptable, by stanza id. */
    this.undecryptable = new Map();
    /** Every retry receipt our devices sent (decoded), in order. */
    this.fromUs = [];
    /** Contacts (by phone) whose phone asks our device again when it cannot decrypt one of its messages. */
    this.asking = new Set();
    /** Per contact and message id: how many times its phone asked for the message. */
    this.asked = new Map();
    network.inboxListeners.push((owner, entry) => this.onContactInbox(owner, entry));
  }

  /**
   * The contact sends a message our device cannot decrypt. `resends`: how many times it resends when asked (0 = never);
   * `failingResends`: how many of those resends are damaged too (a resend only succeeds after them).
   */
  async sendUndecryptable(contact, device, { message, resends = 1, failingResends = 0 }) {
    const { from, alt } = this.network.addressOf(contact);
    const encrypted = await contact.phone0.encrypt(peerAddress(device), proto.Message.fromObject(message), () => device.bundle());
    const id = `3A${randomBytes(9).toString('hex').toUpperCase()}`;
    const attrs = { from, id, t: nowSeconds(), type: 'text', notify: contact.name, ...alt };
    this.undecryptable.set(id, { contact, device, message, attrs, resendsLeft: resends, failingLeft: failingResends, resent: [] });
    this.network.deliver(device, {
      tag: 'message',
      attrs,
      content: [{ tag: 'enc', attrs: { v: '2', type: encrypted.type }, content: damaged(encrypted) }],
    });
    return { id, encType: encrypted.type };
  }

  /** Our device asked for a message again (`receipt type=retry`): the sender's phone resends it, or does not. */
  async onRetryReceipt(connection, node) {
    const retry = getBinaryNodeChild(node, 'retry');
    const keys = getBinaryNodeChild(node, 'keys');
    const record = {
      device: connection.device?.jid,
      to: node.attrs.to,
      id: node.attrs.id,
      attrs: { ...node.attrs },
      retry: { ...retry?.attrs },
      registration: getBinaryNodeChild(node, 'registration') ? true : false,
      keys: keys ? keys.content.map((item) => item.tag) : undefined,
      answered: 'not ours',
    };
    this.fromUs.push(record);
    const pending = this.undecryptable.get(node.attrs.id);
    if (!pending || !connection.device) return true;
    if (pending.resendsLeft <= 0) {
      record.answered = 'ignored';
      return true;
    }
    pending.resendsLeft -= 1;
    const { contact, device } = pending;
    const address = peerAddress(device);
    const count = Number(retry?.attrs.count ?? 1);
    const offered = extractE2ESessionFromRetryReceipt(node);
    // whatsmeow retry.go: a bundle in the receipt starts a new session; from the 2nd attempt without one the phone
    // fetches the device's bundle from the server; a first request is answered on the session it has.
    if (offered || count >= 2) contact.phone0.sessions.delete(address.toString());
    const encrypted = await contact.phone0.encrypt(address, proto.Message.fromObject(pending.message), () => offered ?? device.bundle());
    const fails = pending.failingLeft > 0;
    if (fails) pending.failingLeft -= 1;
    record.answered = fails ? `resent damaged (${encrypted.type})` : `resent (${encrypted.type})`;
    pending.resent.push({ count, encType: encrypted.type, fromBundle: Boolean(offered), damaged: fails });
    this.network.deliver(device, {
      tag: 'message',
      attrs: { ...pending.attrs, t: nowSeconds() },
      content: [
        {
          tag: 'enc',
          attrs: { v: '2', type: encrypted.type, count: String(count) },
          content: fails ? damaged(encrypted) : encrypted.ciphertext,
        },
      ],
    });
    return true;
  }

  /**
   * The contact's phone answers our first retry receipt only now (it was offline since): a resend on a new session
   * from the bundle the server hands out, as for any request it answers late.
   */
  async resendLate(id) {
    const pending = this.undecryptable.get(id);
    if (!pending) throw httpError(404, `no undecryptable message ${id}`);
    const { contact, device } = pending;
    const address = peerAddress(device);
    contact.phone0.sessions.delete(address.toString());
    const encrypted = await contact.phone0.encrypt(address, proto.Message.fromObject(pending.message), () => device.bundle());
    pending.resent.push({ count: 1, encType: encrypted.type, fromBundle: false, damaged: false, late: true });
    this.network.deliver(device, {
      tag: 'message',
      attrs: { ...pending.attrs, t: nowSeconds() },
      content: [{ tag: 'enc', attrs: { v: '2', type: encrypted.type, count: '1' }, content: encrypted.ciphertext }],
    });
    return { id, encType: encrypted.type };
  }

  /** A contact's phone could not decrypt what our device sent: when it is one that asks, it asks for it again. */
  onContactInbox(owner, entry) {
    if (!entry.error || !this.asking.has(owner.phone) || !owner.phone0) return;
    const device = this.network.deviceByJid(entry.from);
    if (!device) return;
    void this.askAgain(owner, device, entry.id).catch((error) => this.network.log(`retry receipt: ${error.stack ?? error}`));
  }

  /**
   * The contact's phone asks our device for a message again, with the receipt rc14's `sendRetryRequest` builds: keys
   * from the 2nd attempt (or when asked to). A primary phone has no companion identity to add (`device-identity`).
   */
  async askAgain(contact, device, id, { count, keys } = {}) {
    const key = `${contact.phone}/${id}`;
    const attempt = count ?? (this.asked.get(key) ?? 0) + 1;
    this.asked.set(key, attempt);
    const { from } = this.network.addressOf(contact);
    const content = [
      { tag: 'retry', attrs: { count: String(attempt), id, t: nowSeconds(), v: '1', error: '0' } },
      { tag: 'registration', attrs: {}, content: encodeBigEndian(contact.phone0.registrationId) },
    ];
    if (keys ?? attempt > 1) {
      const bundle = contact.phone0.bundle();
      content.push({
        tag: 'keys',
        attrs: {},
        content: [
          { tag: 'type', attrs: {}, content: Buffer.from(KEY_BUNDLE_TYPE) },
          { tag: 'identity', attrs: {}, content: bundle.identityKey },
          xmppPreKey({ public: bundle.preKey.publicKey }, bundle.preKey.keyId),
          {
            tag: 'skey',
            attrs: {},
            content: [
              { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.keyId, 3) },
              { tag: 'value', attrs: {}, content: bundle.signedPreKey.publicKey },
              { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
            ],
          },
        ],
      });
    }
    this.network.deliver(device, { tag: 'receipt', attrs: { from, id, type: 'retry', t: nowSeconds() }, content });
    return { count: attempt };
  }

  /**
   * The contact's phone loses its session with our device and its unused one-time pre-keys (a restored backup): neither
   * a `msg` on the old session nor a `pkmsg` naming one of those pre-keys decrypts there any more.
   */
  forgetSession(contact, device) {
    contact.phone0.sessions.delete(peerAddress(device).toString());
    contact.phone0.preKeys.clear();
  }
}

export function retryHandlers(retries) {
  return {
    receipt: (connection, node) => (node.attrs.type === 'retry' && node.attrs.to ? retries.onRetryReceipt(connection, node) : false),
  };
}

export function retryRoutes(network, retries) {
  const contactOf = (phone) => {
    const contact = network.contacts.get(String(phone));
    if (!contact) throw httpError(404, `no contact ${phone}`);
    return contact;
  };
  const deviceOf = (jid) => {
    const device = network.deviceByJid(String(jid));
    if (!device) throw httpError(404, `no device ${jid}`);
    return device;
  };
  return [
    [/^POST \/retries\/undecryptable$/, ({ body }) => retries.sendUndecryptable(contactOf(body.from), deviceOf(body.to), body)],
    [
      /^GET \/retries\/undecryptable$/,
      ({ query }) => {
        const pending = retries.undecryptable.get(String(query.get('id')));
        if (!pending) throw httpError(404, 'no such message');
        return { id: query.get('id'), resendsLeft: pending.resendsLeft, resent: pending.resent };
      },
    ],
    [/^GET \/retries\/from-us$/, () => retries.fromUs],
    [/^POST \/retries\/resend-late$/, ({ body }) => retries.resendLate(String(body.id))],
    [
      /^POST \/retries\/asking$/,
      ({ body }) => {
        const contact = contactOf(body.phone);
        if (body.asking === false) retries.asking.delete(contact.phone);
        else retries.asking.add(contact.phone);
        return { asking: retries.asking.has(contact.phone) };
      },
    ],
    [
      /^POST \/retries\/forget-session$/,
      ({ body }) => {
        retries.forgetSession(contactOf(body.phone), deviceOf(body.device));
        return { ok: true };
      },
    ],
    [
      /^POST \/retries\/ask$/,
      ({ body }) => retries.askAgain(contactOf(body.from), deviceOf(body.to), String(body.id), { count: body.count, keys: body.keys }),
    ],
  ];
}
