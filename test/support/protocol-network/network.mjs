// The fake WhatsApp Web network: the server our device talks to over a Noise-encrypted WebSocket, the phone of the
// account (which scans QR codes and signs device identities) and the server-side records of every linked device.
import { randomBytes, randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import * as baileys from '@whiskeysockets/baileys';
import { NoiseResponder } from './noise.mjs';
import { SignalParty, peerAddress } from './signal-party.mjs';

const {
  Curve,
  hmacSign,
  hkdf,
  proto,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  jidDecode,
  S_WHATSAPP_NET,
  KEY_BUNDLE_TYPE,
  encodeBigEndian,
  derivePairingCodeKey,
  aesDecryptCTR,
  aesEncryptCTR,
  aesDecryptGCM,
} = baileys;

const ADV_ACCOUNT_SIGNATURE_PREFIX = Buffer.from([6, 0]);
const ADV_DEVICE_SIGNATURE_PREFIX = Buffer.from([6, 1]);
const QR_REFS = 6;

const nowSeconds = () => String(Math.floor(Date.now() / 1000));
const child = (node, tag) => getBinaryNodeChild(node, tag);
const children = (node, tag) => getBinaryNodeChildren(node, tag);
const firstChild = (node) => (Array.isArray(node.content) ? node.content[0] : undefined);
const bytes = (content) => (content === undefined ? undefined : Buffer.from(content));

/** A phone-number account: the phone's identity key signs every device it links (ADV). */
export class Account {
  constructor(phone, lidUser) {
    this.phone = phone;
    this.lidUser = lidUser;
    this.identity = Curve.generateKeyPair();
    this.nextDeviceId = 1;
    this.nextKeyIndex = 1;
    /** The phone (device 0): its Signal identity is the key that signs its companions. */
    this.phone0 = new SignalParty(this.identity);
    this.inbox = [];
  }
  get jid() {
    return `${this.phone}@s.whatsapp.net`;
  }
  get lid() {
    return `${this.lidUser}@lid`;
  }
}

/** The server's record of one linked companion device. */
class Device {
  constructor(account, deviceId, registration) {
    this.account = account;
    this.deviceId = deviceId;
    this.noiseKey = registration.noiseKey;
    this.identityKey = registration.identityKey;
    this.registrationId = registration.registrationId;
    this.signedPreKey = registration.signedPreKey;
    this.preKeys = new Map();
    /** Every one-time pre-key ever uploaded (id -> public key), and ids uploaded again with another key. */
    this.uploadedPreKeys = new Map();
    this.reusedPreKeyIds = [];
    /** Callbacks waiting for the device's next pre-key upload. */
    this.uploadWaiters = [];
    this.linked = false;
    this.deviceSignature = undefined;
  }
  get jid() {
    return `${this.account.phone}:${this.deviceId}@s.whatsapp.net`;
  }
  get lid() {
    return `${this.account.lidUser}:${this.deviceId}@lid`;
  }

  /** Our device's pre-key bundle, as the server hands it to a peer: each one-time pre-key goes out once. */
  bundle() {
    const [keyId, publicKey] = this.preKeys.entries().next().value ?? [];
    if (keyId !== undefined) this.preKeys.delete(keyId);
    return {
      registrationId: this.registrationId,
      identityKey: this.identityKey,
      signedPreKey: { keyId: this.signedPreKey.keyId, publicKey: this.signedPreKey.public, signature: this.signedPreKey.signature },
      preKey: keyId === undefined ? undefined : { keyId, publicKey },
    };
  }
}

/** Another WhatsApp user our account talks to: one phone (device 0) with its own Signal identity. */
export class Contact {
  constructor(phone, lidUser, name) {
    this.phone = phone;
    this.lidUser = lidUser;
    this.name = name;
    this.phone0 = new SignalParty();
    /** Every device of the contact, device 0 (the phone) first; companions join and leave (devices.mjs). */
    this.devices = new Map([[0, this.phone0]]);
    this.nextDeviceId = 1;
    /** What this contact received from our devices, decrypted (each entry names the device that received it). */
    this.inbox = [];
  }
  get jid() {
    return `${this.phone}@s.whatsapp.net`;
  }
  get lid() {
    return `${this.lidUser}@lid`;
  }
}

export class FakeNetwork {
  constructor(authority, log = () => {}) {
    this.authority = authority;
    this.log = log;
    this.connections = new Set();
    /** Every connection ever attached, closed ones included (for `links`). */
    this.allConnections = new Set();
    this.accounts = new Map();
    this.devices = [];
    /** Every stanza our devices sent, decoded, for tests to inspect. */
    this.received = [];
    this.contacts = new Map();
    this.nextId = 1;
    /** 'pn' (the network addresses one-to-one chats by phone number) or 'lid' (by LID, the phone number alongside). */
    this.addressing = 'pn';
    /** Protocol handlers added by other modules (media, groups): `{ iq?, receipt?, message? }(connection, node)`, true when handled. */
    this.handlers = [];
    /** Called with (owner, entry) for every copy of our devices' messages a contact or phone decrypted or failed to. */
    this.inboxListeners = [];
    /** Run in order at a device's first login, before the history sync: `(device) => Promise` (the app-state key share). */
    this.firstLoginHooks = [];
    /** `(account) => [{ id, ... }]`: conversations the phone lists in a new device's initial history (app state's chats). */
    this.bootstrapConversations = [];
    /** Numbers connections and orders what happens to them (`links`): one counter for every login, stanza and close. */
    this.nextConnection = 1;
    this.nextSeq = 1;
  }

  /** The next number on the network's one clock of link events, so tests can order logins, stanzas and closes. */
  tick() {
    return this.nextSeq++;
  }

  /**
   * Every connection that logged in as the device, in login order: when it logged in, when the server stopped taking
   * it as the device (`ended`: replaced by a newer login, a stream error, or the socket closed) and why, and when each
   * stanza it sent arrived. Two sessions of one identity both acted if one's stanzas fall after its own end or inside
   * another's window.
   */
  links(device) {
    return [...this.allConnections]
      .filter((c) => c.device === device && c.link)
      .map((c) => ({ connection: c.id, ...c.link, stanzas: [...c.link.stanzas] }));
  }

  contact(phone, name, lidUser) {
    let contact = this.contacts.get(phone);
    if (!contact) {
      contact = new Contact(phone, lidUser ?? String(200_000_000_000_000 + randomInt(1, 99_999_999)), name ?? `Contact ${phone}`);
      this.contacts.set(phone, contact);
    }
    return contact;
  }

  /** Whoever answers for a user (phone number or LID): a contact or an account (phone plus linked devices). */
  userOf(jid) {
    const { user } = jidDecode(jid);
    for (const contact of this.contacts.values()) if (contact.phone === user || contact.lidUser === user) return { contact };
    for (const account of this.accounts.values()) if (account.phone === user || account.lidUser === user) return { account };
    return undefined;
  }

  /** The Signal party behind a device JID (device 0 is the phone of a contact or of an account). */
  partyOf(jid) {
    const found = this.userOf(jid);
    const device = jidDecode(jid).device ?? 0;
    if (!found || device !== 0) return undefined;
    return found.contact ?? found.account;
  }

  /**
   * The Signal party of any device JID: a contact's phone or companion (`devices`), or an account's phone. `owner`
   * answers for the user even when the device is unknown (a removed companion): `party` is then undefined.
   */
  deviceParty(jid) {
    const found = this.userOf(jid);
    if (!found) return undefined;
    const deviceId = jidDecode(jid).device ?? 0;
    const owner = found.contact ?? found.account;
    const party = found.contact ? found.contact.devices.get(deviceId) : deviceId === 0 ? found.account.phone0 : undefined;
    return { owner, party, deviceId };
  }

  account(phone) {
    let account = this.accounts.get(phone);
    if (!account) {
      account = new Account(phone, String(100_000_000_000_000 + randomInt(1, 99_999_999)));
      this.accounts.set(phone, account);
    }
    return account;
  }

  stanzaId() {
    return `fake-${this.nextId++}`;
  }

  attach(socket) {
    const connection = new Connection(this, socket);
    this.connections.add(connection);
    this.allConnections.add(connection);
    socket.on('close', () => {
      connection.closed = true;
      connection.endLink('closed');
      this.connections.delete(connection);
    });
    return connection;
  }

  /** The open connection currently logged in as a device (the newest one, as the real server keeps one). */
  connectionOf(device) {
    return [...this.connections].filter((c) => c.device === device && c.loggedIn && !c.closed).at(-1);
  }

  deviceByJid(jid) {
    const { user, device } = jidDecode(jid);
    return this.devices.find((d) => (d.account.phone === user || d.account.lidUser === user) && d.deviceId === (device ?? 0));
  }

  /** The phone scans a QR code shown by a companion: it signs the companion's identity and the server pairs it. */
  async scan(qr, phone) {
    const fragment = String(qr).split('#')[1] ?? '';
    const [ref, noiseKeyB64, identityKeyB64, advSecretB64, platformId] = fragment.split(',');
    if (!ref || !noiseKeyB64 || !identityKeyB64 || !advSecretB64 || !platformId) throw httpError(400, `not a pairing QR: ${qr}`);
    const connection = [...this.connections].find(
      (c) => !c.closed && c.registration && c.registration.noiseKey.toString('base64') === noiseKeyB64,
    );
    if (!connection) throw httpError(404, 'no companion with that noise key is waiting to pair');
    if (!connection.refs.includes(ref)) throw httpError(409, 'the QR carries a ref this server never issued to that companion');
    if (!Buffer.from(identityKeyB64, 'base64').equals(connection.registration.identityKey)) {
      throw httpError(409, "the QR's identity key differs from the one the companion registered");
    }
    const device = this.link(connection, this.account(phone), Buffer.from(advSecretB64, 'base64'));
    return { deviceJid: device.jid, lid: device.lid, platformId };
  }

  /**
   * The phone's user types the pair code the companion showed: the phone unwraps the companion's ephemeral key with it
   * and answers with its own wrapped ephemeral key and identity (the companion then sends its key bundle).
   */
  async enterPairCode(phone, code) {
    const connection = [...this.connections].find((c) => !c.closed && c.linkCode?.phone === phone);
    if (!connection) throw httpError(404, `no companion is waiting for a pair code of ${phone}`);
    const wrapped = connection.linkCode.wrappedCompanionEphemeral;
    const companionEphemeral = aesDecryptCTR(
      wrapped.subarray(48, 80),
      await derivePairingCodeKey(code, wrapped.subarray(0, 32)),
      wrapped.subarray(32, 48),
    );
    const account = this.account(phone);
    const ephemeral = Curve.generateKeyPair();
    const salt = randomBytes(32);
    const iv = randomBytes(16);
    const wrappedPrimary = Buffer.concat([salt, iv, aesEncryptCTR(ephemeral.public, await derivePairingCodeKey(code, salt), iv)]);
    connection.linkCode = { ...connection.linkCode, account, ephemeral, companionEphemeral };
    connection.send({
      tag: 'notification',
      attrs: { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id: this.stanzaId(), t: nowSeconds() },
      content: [
        {
          tag: 'link_code_companion_reg',
          attrs: {},
          content: [
            { tag: 'link_code_pairing_ref', attrs: {}, content: connection.linkCode.ref },
            { tag: 'primary_identity_pub', attrs: {}, content: account.identity.public },
            { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedPrimary },
          ],
        },
      ],
    });
    return { ok: true };
  }

  /** The companion's key bundle: the phone derives the ADV secret from it and links the device as for a QR scan. */
  finishPairCode(connection, request) {
    const { account, ephemeral, companionEphemeral } = connection.linkCode;
    const bundle = Buffer.from(child(request, 'link_code_pairing_wrapped_key_bundle').content);
    const companionIdentity = Buffer.from(child(request, 'companion_identity_public').content);
    const companionShared = Curve.sharedKey(ephemeral.private, companionEphemeral);
    const key = hkdf(companionShared, 32, { salt: bundle.subarray(0, 32), info: 'link_code_pairing_key_bundle_encryption_key' });
    const payload = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0));
    if (!payload.subarray(0, 32).equals(companionIdentity) || !payload.subarray(32, 64).equals(account.identity.public)) {
      throw new Error('the key bundle does not carry the two identities');
    }
    const random = payload.subarray(64);
    const identityShared = Curve.sharedKey(account.identity.private, companionIdentity);
    const advSecret = Buffer.from(hkdf(Buffer.concat([companionShared, identityShared, random]), 32, { info: 'adv_secret' }));
    connection.linkCode = undefined;
    this.link(connection, account, advSecret);
  }

  link(connection, account, advSecret) {
    const device = new Device(account, account.nextDeviceId++, connection.registration);
    const keyIndex = account.nextKeyIndex++;
    const deviceDetails = proto.ADVDeviceIdentity.encode({
      rawId: randomInt(1, 2 ** 31),
      timestamp: Math.floor(Date.now() / 1000),
      keyIndex,
    }).finish();
    const accountSignature = Curve.sign(
      account.identity.private,
      Buffer.concat([ADV_ACCOUNT_SIGNATURE_PREFIX, deviceDetails, device.identityKey]),
    );
    const signed = proto.ADVSignedDeviceIdentity.encode({
      details: deviceDetails,
      accountSignatureKey: account.identity.public,
      accountSignature,
    }).finish();
    const identityHmac = proto.ADVSignedDeviceIdentityHMAC.encode({ details: signed, hmac: hmacSign(signed, advSecret) }).finish();
    device.keyIndex = keyIndex;
    device.deviceDetails = Buffer.from(deviceDetails);
    this.devices.push(device);
    connection.pendingDevice = device;
    connection.send({
      tag: 'iq',
      attrs: { from: S_WHATSAPP_NET, type: 'set', id: this.stanzaId(), xmlns: 'md', t: nowSeconds() },
      content: [
        {
          tag: 'pair-success',
          attrs: {},
          content: [
            { tag: 'device-identity', attrs: {}, content: identityHmac },
            { tag: 'platform', attrs: { name: 'android' } },
            { tag: 'device', attrs: { jid: device.jid, lid: device.lid } },
          ],
        },
      ],
    });
    return device;
  }

  /** The companion signed the device identity back: the account verifies it and the link is complete. */
  confirmLink(connection, signNode) {
    const device = connection.pendingDevice;
    const identityNode = child(child(signNode, 'pair-device-sign'), 'device-identity');
    if (!device || !identityNode) throw new Error('unexpected pair-device-sign');
    const signed = proto.ADVSignedDeviceIdentity.decode(identityNode.content);
    const deviceMessage = Buffer.concat([
      ADV_DEVICE_SIGNATURE_PREFIX,
      device.deviceDetails,
      device.identityKey,
      device.account.identity.public,
    ]);
    if (!Curve.verify(device.identityKey, deviceMessage, signed.deviceSignature)) throw new Error('the device signature does not verify');
    device.linked = true;
    device.deviceSignature = Buffer.from(signed.deviceSignature);
    connection.pendingDevice = undefined;
    // As the real server does: a freshly paired companion must reconnect and log in.
    connection.streamError(515);
  }

  /** The chat address a contact has on the wire in the current addressing mode, with the other identity alongside. */
  addressOf(contact) {
    return this.addressing === 'lid'
      ? { from: contact.lid, alt: { sender_pn: contact.jid, addressing_mode: 'lid' } }
      : { from: contact.jid, alt: { sender_lid: contact.lid, addressing_mode: 'pn' } };
  }

  /** A contact's phone sends a message to one of our devices, encrypted for it (queued while it is offline). */
  async sendFromContact(contact, device, { message, id, type = 'text', mediatype, fromDevice = 0 }) {
    const { from: user, alt } = this.addressOf(contact);
    const sender = contact.devices.get(Number(fromDevice));
    if (!sender) throw httpError(404, `${contact.phone} has no device ${fromDevice}`);
    // A companion's message names its device in `from` (user:device@server), as the real server routes it.
    const from = Number(fromDevice) ? user.replace('@', `:${fromDevice}@`) : user;
    const encrypted = await sender.encrypt(peerAddress(device), proto.Message.fromObject(message), () => device.bundle());
    const stanzaId = id ?? `3A${randomBytes(9).toString('hex').toUpperCase()}`;
    const node = {
      tag: 'message',
      attrs: { from, id: stanzaId, t: nowSeconds(), type, notify: contact.name, ...alt },
      content: [
        { tag: 'enc', attrs: { v: '2', type: encrypted.type, ...(mediatype ? { mediatype } : {}) }, content: encrypted.ciphertext },
      ],
    };
    this.deliver(device, node);
    return { id: stanzaId, encType: encrypted.type };
  }

  /** A contact's delivery or read receipt for messages our device sent. */
  receiptFromContact(contact, device, ids, type) {
    const { from } = this.addressOf(contact);
    const [first, ...rest] = ids;
    this.deliver(device, {
      tag: 'receipt',
      attrs: { from, id: first, t: nowSeconds(), ...(type && type !== 'delivery' ? { type } : {}) },
      content: rest.length ? [{ tag: 'list', attrs: {}, content: rest.map((item) => ({ tag: 'item', attrs: { id: item } })) }] : undefined,
    });
  }

  /** The account's phone sends a message to one of its companion devices (e.g. the history sync after a pairing). */
  async sendFromPhone(device, message) {
    const encrypted = await device.account.phone0.encrypt(peerAddress(device), proto.Message.fromObject(message), () => device.bundle());
    const id = `3A${randomBytes(9).toString('hex').toUpperCase()}`;
    this.deliver(device, {
      tag: 'message',
      attrs: { from: device.account.jid, id, t: nowSeconds(), type: 'text', category: 'peer' },
      content: [{ tag: 'enc', attrs: { v: '2', type: encrypted.type }, content: encrypted.ciphertext }],
    });
    return id;
  }

  /** After a new companion's first login the phone pushes the initial history (inline, empty here) as WhatsApp does. */
  async initialHistorySync(device) {
    const bootstrap = proto.HistorySync.encode({
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      conversations: this.bootstrapConversations.flatMap((conversationsOf) => conversationsOf(device.account)),
    }).finish();
    await this.sendFromPhone(device, {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: {
          syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
          initialHistBootstrapInlinePayload: deflateSync(bootstrap),
          chunkOrder: 0,
          progress: 100,
        },
      },
    });
  }

  /** Sends to the device now, or keeps it for the device's next login (the offline queue). */
  deliver(device, node) {
    const connection = this.connectionOf(device);
    if (connection) connection.send(node);
    else (device.offline ??= []).push(node);
  }

  /**
   * The server's stock of the device's one-time pre-keys ran out (peers fetched them all): it tells the device so, as
   * the real server's PreKeyLow notification does, and resolves once the device uploaded a new batch.
   */
  preKeyLow(device) {
    const connection = this.connectionOf(device);
    if (!connection) throw httpError(404, 'that device is not connected');
    device.preKeys.clear();
    const uploaded = new Promise((resolve) => device.uploadWaiters.push(resolve));
    connection.send({
      tag: 'notification',
      attrs: { from: S_WHATSAPP_NET, type: 'encrypt', id: this.stanzaId(), t: nowSeconds() },
      content: [{ tag: 'count', attrs: { value: '0' } }],
    });
    return uploaded;
  }

  /** Ends a device's connection the way the server does for the given code. */
  disconnect(device, code) {
    const connection = this.connectionOf(device);
    if (!connection) throw httpError(404, 'that device is not connected');
    if (code === 401) {
      device.linked = false;
      connection.failure(401);
    } else if (code === 'device_removed') {
      // How WhatsApp unlinks a companion (removed from the phone's "Linked devices"): a 401 stream error carrying
      // `<conflict type="device_removed"/>`; Baileys takes the code attribute over the conflict's 440
      // (`getErrorCodeFromStreamError`, rc14 lib/Utils/generics.js).
      device.linked = false;
      connection.streamError(401, 'conflict', { type: 'device_removed' });
    } else if (code === 440) {
      connection.streamError(undefined, 'conflict', { type: 'replaced' });
    } else if (code === 'close') {
      connection.socket.close();
    } else {
      connection.streamError(code);
    }
  }
}

/** A node as JSON for tests: tags and attributes, byte contents as base64. */
export function summariseNode(node) {
  return { tag: node.tag, attrs: { ...node.attrs }, content: summariseContent(node.content) };
}

function summariseContent(content) {
  if (Array.isArray(content)) return content.map(summariseNode);
  if (content === undefined || content === null) return undefined;
  return typeof content === 'string' ? content : Buffer.from(content).toString('base64');
}

export function httpError(status, message) {
  return Object.assign(new Error(message), { status });
}

class Connection {
  constructor(network, socket) {
    this.network = network;
    this.socket = socket;
    this.closed = false;
    this.loggedIn = false;
    this.refs = [];
    this.id = network.nextConnection++;
    /** Set at login: `{ login, ended?, endedBy?, stanzas }` on the network's clock (`FakeNetwork.links`). */
    this.link = undefined;
    this.noise = new NoiseResponder(network.authority, {
      send: (frame) => !this.closed && socket.send(frame),
      onHandshake: (payload, clientStatic) => this.handshake(payload, clientStatic),
      onNode: (node) => this.node(node),
      onError: (error) => {
        network.log(`connection error: ${error.stack ?? error}`);
        socket.terminate();
      },
    });
    socket.on('message', (data) => this.noise.receive(data));
  }

  send(node) {
    if (!this.closed) this.noise.sendNode(node);
  }

  streamError(code, reasonTag, reasonAttrs = {}) {
    this.send({
      tag: 'stream:error',
      attrs: code === undefined ? {} : { code: String(code) },
      content: reasonTag ? [{ tag: reasonTag, attrs: reasonAttrs }] : undefined,
    });
    this.end(reasonAttrs.type === 'replaced' ? 'replaced' : `stream error ${code ?? reasonTag}`);
  }

  failure(reason) {
    this.send({ tag: 'failure', attrs: { reason: String(reason), location: 'fake' } });
    this.end(`failure ${reason}`);
  }

  end(why = 'stream error') {
    this.loggedIn = false;
    this.endLink(why);
    setTimeout(() => this.socket.close(), 20);
  }

  /** From now on the server no longer takes this connection as its device (the first reason counts). */
  endLink(why) {
    if (this.link && this.link.ended === undefined) Object.assign(this.link, { ended: this.network.tick(), endedBy: why });
  }

  handshake(payload, clientStatic) {
    this.clientStatic = clientStatic;
    if (payload.devicePairingData) return this.register(payload, clientStatic);
    return this.login(payload, clientStatic);
  }

  register(payload, clientStatic) {
    const pairing = payload.devicePairingData;
    this.registration = {
      noiseKey: clientStatic,
      identityKey: Buffer.from(pairing.eIdent),
      registrationId: Buffer.from(pairing.eRegid).readUInt32BE(0),
      signedPreKey: {
        keyId: Buffer.from(pairing.eSkeyId).readUIntBE(0, 3),
        public: Buffer.from(pairing.eSkeyVal),
        signature: Buffer.from(pairing.eSkeySig),
      },
      deviceProps: proto.DeviceProps.decode(pairing.deviceProps),
    };
    this.refs = Array.from({ length: QR_REFS }, () => `2@${randomBytes(24).toString('base64')}`);
    this.send({
      tag: 'iq',
      attrs: { from: S_WHATSAPP_NET, type: 'set', id: this.network.stanzaId(), xmlns: 'md' },
      content: [{ tag: 'pair-device', attrs: {}, content: this.refs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })) }],
    });
  }

  login(payload, clientStatic) {
    const device = this.network.devices.find((d) => d.account.phone === String(payload.username) && d.deviceId === (payload.device ?? 0));
    if (!device || !device.linked || !device.noiseKey.equals(clientStatic)) return this.failure(401);
    this.device = device;
    this.loggedIn = true;
    device.logins = (device.logins ?? 0) + 1;
    // A newer login replaces an older connection of the same device, as the real server does.
    for (const other of this.network.connections) {
      if (other !== this && other.device === device && other.loggedIn) other.streamError(undefined, 'conflict', { type: 'replaced' });
    }
    this.link = { login: this.network.tick(), ended: undefined, endedBy: undefined, stanzas: [] };
    this.send({
      tag: 'success',
      attrs: { t: nowSeconds(), lid: device.lid, location: 'fake', props: '1', abprops: '1', creation: nowSeconds() },
    });
    const offline = device.offline ?? [];
    device.offline = [];
    for (const queued of offline) this.send({ ...queued, attrs: { ...queued.attrs, offline: '1' } });
    this.send({ tag: 'ib', attrs: {}, content: [{ tag: 'offline', attrs: { count: String(offline.length) } }] });
    if (!device.synced) {
      device.synced = true;
      void (async () => {
        for (const hook of this.network.firstLoginHooks) await hook(device);
        await this.network.initialHistorySync(device);
      })().catch((error) => this.network.log(`history sync: ${error.stack ?? error}`));
    }
  }

  async node(node) {
    this.link?.stanzas.push(this.network.tick());
    this.network.received.push({
      device: this.device?.jid,
      tag: node.tag,
      attrs: { ...node.attrs },
      content: summariseContent(node.content),
    });
    for (const handler of this.network.handlers) if (await handler[node.tag]?.(this, node)) return;
    if (node.tag === 'iq') return this.iq(node);
    if (node.tag === 'message') return this.message(node);
  }

  result(request, content, attrs = {}) {
    this.send({ tag: 'iq', attrs: { from: request.attrs.to ?? S_WHATSAPP_NET, type: 'result', id: request.attrs.id, ...attrs }, content });
  }

  iq(node) {
    const { type, xmlns } = node.attrs;
    const first = firstChild(node);
    if (type === 'result' || type === 'error') {
      if (first?.tag === 'pair-device-sign') this.network.confirmLink(this, node);
      return;
    }
    if (xmlns === 'encrypt' && first?.tag === 'count') {
      return this.result(node, [{ tag: 'count', attrs: { value: String(this.device?.preKeys.size ?? 0) } }]);
    }
    if (xmlns === 'encrypt' && type === 'set' && child(node, 'list')) return this.uploadPreKeys(node);
    if (xmlns === 'encrypt' && first?.tag === 'digest') return this.result(node, [{ tag: 'digest', attrs: {} }]);
    if (xmlns === 'privacy' && type === 'get') {
      const categories = ['last', 'online', 'profile', 'status', 'groupadd', 'readreceipts', 'calladd', 'messages'];
      const values = { online: 'all', readreceipts: 'all', calladd: 'all', messages: 'all' };
      return this.result(node, [
        {
          tag: 'privacy',
          attrs: {},
          content: categories.map((name) => ({ tag: 'category', attrs: { name, value: values[name] ?? 'contacts' } })),
        },
      ]);
    }
    if (xmlns === 'blocklist') return this.result(node, [{ tag: 'list', attrs: {} }]);
    if (xmlns === 'abt') return this.result(node, [{ tag: 'props', attrs: { protocol: '1', hash: 'fake' }, content: [] }]);
    if (xmlns === 'md' && first?.tag === 'remove-companion-device') return this.removeCompanion(node, first);
    if (xmlns === 'md' && first?.tag === 'link_code_companion_reg') return this.linkCodeStage(node, first);
    if (xmlns === 'usync') return this.usync(node);
    if (xmlns === 'w:sync:app:state') {
      // Only without app-state.mjs (which answers a logged-in device): every collection at the version asked for, complete.
      const collections = children(child(node, 'sync'), 'collection').map(({ attrs }) => ({
        tag: 'collection',
        attrs: { name: attrs.name, version: attrs.version ?? '0' },
      }));
      return this.result(node, [{ tag: 'sync', attrs: {}, content: collections }]);
    }
    if (xmlns === 'encrypt' && type === 'get' && first?.tag === 'key') return this.preKeyBundles(node, first);
    return this.result(node);
  }

  /** Device lists, LIDs and "is on WhatsApp" for the users asked about. */
  usync(node) {
    const request = child(node, 'usync');
    const protocols = (firstChild(request)?.content ?? []).map((protocol) => protocol.tag);
    const users = children(child(request, 'list'), 'user').map((user) => {
      const contactNode = child(user, 'contact');
      const jid = user.attrs.jid ?? `${String(contactNode?.content ?? '').replace(/^\+/, '')}@s.whatsapp.net`;
      const found = this.network.userOf(jid);
      const content = [];
      if (protocols.includes('contact')) content.push({ tag: 'contact', attrs: { type: found ? 'in' : 'out' } });
      if (found && protocols.includes('devices')) {
        const devices = found.account
          ? [{ tag: 'device', attrs: { id: '0' } }].concat(
              this.network.devices
                .filter((d) => d.account === found.account && d.linked)
                .map((d) => ({ tag: 'device', attrs: { id: String(d.deviceId), 'key-index': String(d.keyIndex) } })),
            )
          : [...found.contact.devices.keys()].map((id) => ({
              tag: 'device',
              attrs: id ? { id: String(id), 'key-index': String(id) } : { id: '0' },
            }));
        content.push({ tag: 'devices', attrs: {}, content: [{ tag: 'device-list', attrs: {}, content: devices }] });
      }
      const owner = found?.contact ?? found?.account;
      if (owner && protocols.includes('lid') && !jid.endsWith('@lid')) content.push({ tag: 'lid', attrs: { val: owner.lid } });
      return { tag: 'user', attrs: { jid }, content };
    });
    this.result(node, [
      {
        tag: 'usync',
        attrs: { ...request.attrs },
        content: [
          { tag: 'result', attrs: {} },
          { tag: 'list', attrs: {}, content: users },
        ],
      },
    ]);
  }

  /** Pre-key bundles of the devices asked about: a phone (contact or account) or a linked device of ours. */
  preKeyBundles(node, keyRequest) {
    const users = children(keyRequest, 'user').map(({ attrs: { jid } }) => {
      const party = this.network.deviceParty(jid)?.party ?? this.network.deviceByJid(jid);
      if (!party) return { tag: 'user', attrs: { jid }, content: [{ tag: 'error', attrs: { code: '404', text: 'item-not-found' } }] };
      const bundle = party.bundle();
      const content = [
        { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId, 4) },
        { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
        { tag: 'identity', attrs: {}, content: bundle.identityKey },
        {
          tag: 'skey',
          attrs: {},
          content: [
            { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.keyId, 3) },
            { tag: 'value', attrs: {}, content: bundle.signedPreKey.publicKey },
            { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
          ],
        },
      ];
      if (bundle.preKey) {
        content.push({
          tag: 'key',
          attrs: {},
          content: [
            { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.preKey.keyId, 3) },
            { tag: 'value', attrs: {}, content: bundle.preKey.publicKey },
          ],
        });
      }
      return { tag: 'user', attrs: { jid }, content };
    });
    this.result(node, [{ tag: 'list', attrs: {}, content: users }]);
  }

  /**
   * A message our device sent: every recipient device decrypts its copy; the server acknowledges the stanza (unless
   * `ack` is false: the link drops first, see link-drops.mjs).
   */
  async message(node, { ack = true } = {}) {
    const recipients = children(child(node, 'participants'), 'to');
    const direct = child(node, 'enc') ? [{ attrs: { jid: node.attrs.to }, content: [child(node, 'enc')] }] : [];
    const extras = (node.content ?? [])
      .filter((item) => !['participants', 'enc', 'device-identity'].includes(item.tag))
      .map((item) => summariseNode(item));
    for (const recipient of [...recipients, ...direct]) {
      const { owner, party, deviceId } = this.network.deviceParty(recipient.attrs.jid) ?? {};
      const enc = child(recipient, 'enc');
      if (!owner || !enc) continue;
      const entry = {
        // A companion's copy names its device; the phone's (device 0) carries no such field, as before companions.
        ...(deviceId ? { device: deviceId } : {}),
        id: node.attrs.id,
        to: node.attrs.to,
        recipient: recipient.attrs.jid,
        from: this.device.jid,
        type: node.attrs.type,
        attrs: { ...node.attrs },
        encType: enc.attrs.type,
        encAttrs: { ...enc.attrs },
        hasDeviceIdentity: Boolean(child(node, 'device-identity')),
        extras,
      };
      try {
        if (!party) throw new Error(`no device ${deviceId}: the server refused the copy for it`);
        const message = await party.decrypt(peerAddress(this.device), enc.attrs.type, enc.content);
        entry.message = proto.Message.toObject(message, { longs: String, bytes: String, enums: String, defaults: false });
      } catch (error) {
        entry.error = String(error?.message ?? error);
      }
      owner.inbox.push(entry);
      for (const listener of this.network.inboxListeners) listener(owner, entry);
    }
    if (ack) this.send({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } });
  }

  uploadPreKeys(node) {
    if (!this.device) return this.result(node);
    const ids = [];
    for (const key of children(child(node, 'list'), 'key')) {
      const id = bytes(child(key, 'id').content).readUIntBE(0, 3);
      const publicKey = bytes(child(key, 'value').content);
      // An id handed out again with another key breaks every peer that fetched the first one (Invalid PreKey ID,
      // Bad MAC): it happens when a device's credentials forget the ids its key store already used.
      const earlier = this.device.uploadedPreKeys.get(id);
      if (earlier && !earlier.equals(publicKey)) this.device.reusedPreKeyIds.push(id);
      this.device.uploadedPreKeys.set(id, publicKey);
      this.device.preKeys.set(id, publicKey);
      ids.push(id);
    }
    const skey = child(node, 'skey');
    this.device.signedPreKey = {
      keyId: bytes(child(skey, 'id').content).readUIntBE(0, 3),
      public: bytes(child(skey, 'value').content),
      signature: bytes(child(skey, 'signature').content),
    };
    this.result(node);
    const waiters = this.device.uploadWaiters.splice(0);
    for (const resolve of waiters) resolve({ ids });
  }

  /** Pairing by code: the companion's hello (its wrapped ephemeral key) and, after the phone answered, its finish. */
  linkCodeStage(node, request) {
    if (request.attrs.stage === 'companion_hello') {
      const ref = Buffer.from(randomBytes(16).toString('hex'));
      this.linkCode = {
        phone: jidDecode(request.attrs.jid).user,
        ref,
        wrappedCompanionEphemeral: Buffer.from(child(request, 'link_code_pairing_wrapped_companion_ephemeral_pub').content),
      };
      return this.result(node, [
        { tag: 'link_code_companion_reg', attrs: {}, content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: ref }] },
      ]);
    }
    if (request.attrs.stage === 'companion_finish' && this.linkCode?.account) {
      this.result(node);
      return this.network.finishPairCode(this, request);
    }
    return this.result(node);
  }

  removeCompanion(node, request) {
    const device = this.network.deviceByJid(request.attrs.jid);
    if (device) device.linked = false;
    this.result(node);
  }
}
