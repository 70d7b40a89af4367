// The fake WhatsApp Web network: the server our device talks to over a Noise-encrypted WebSocket, the phone of the
// account (which scans QR codes and signs device identities) and the server-side records of every linked device.
import { randomBytes, randomInt } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import { NoiseResponder } from './noise.mjs';

const { Curve, hmacSign, proto, getBinaryNodeChild, getBinaryNodeChildren, jidDecode, S_WHATSAPP_NET } = baileys;

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
    this.linked = false;
    this.deviceSignature = undefined;
  }
  get jid() {
    return `${this.account.phone}:${this.deviceId}@s.whatsapp.net`;
  }
  get lid() {
    return `${this.account.lidUser}:${this.deviceId}@lid`;
  }
}

export class FakeNetwork {
  constructor(authority, log = () => {}) {
    this.authority = authority;
    this.log = log;
    this.connections = new Set();
    this.accounts = new Map();
    this.devices = [];
    /** Every stanza our devices sent, decoded, for tests to inspect. */
    this.received = [];
    this.nextId = 1;
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
    socket.on('close', () => {
      connection.closed = true;
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

  link(connection, account, advSecret) {
    const device = new Device(account, account.nextDeviceId++, connection.registration);
    const keyIndex = account.nextKeyIndex++;
    const deviceDetails = proto.ADVDeviceIdentity.encode({ rawId: randomInt(1, 2 ** 31), timestamp: Math.floor(Date.now() / 1000), keyIndex }).finish();
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
    const deviceMessage = Buffer.concat([ADV_DEVICE_SIGNATURE_PREFIX, device.deviceDetails, device.identityKey, device.account.identity.public]);
    if (!Curve.verify(device.identityKey, deviceMessage, signed.deviceSignature)) throw new Error('the device signature does not verify');
    device.linked = true;
    device.deviceSignature = Buffer.from(signed.deviceSignature);
    connection.pendingDevice = undefined;
    // As the real server does: a freshly paired companion must reconnect and log in.
    connection.streamError(515);
  }

  /** Ends a device's connection the way the server does for the given code. */
  disconnect(device, code) {
    const connection = this.connectionOf(device);
    if (!connection) throw httpError(404, 'that device is not connected');
    if (code === 401) {
      device.linked = false;
      connection.failure(401);
    } else if (code === 440) {
      connection.streamError(undefined, 'conflict', { type: 'replaced' });
    } else if (code === 'close') {
      connection.socket.close();
    } else {
      connection.streamError(code);
    }
  }
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
    this.end();
  }

  failure(reason) {
    this.send({ tag: 'failure', attrs: { reason: String(reason), location: 'fake' } });
    this.end();
  }

  end() {
    this.loggedIn = false;
    setTimeout(() => this.socket.close(), 20);
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
    // A newer login replaces an older connection of the same device, as the real server does.
    for (const other of this.network.connections) {
      if (other !== this && other.device === device && other.loggedIn) other.streamError(undefined, 'conflict', { type: 'replaced' });
    }
    this.send({ tag: 'success', attrs: { t: nowSeconds(), lid: device.lid, location: 'fake', props: '1', abprops: '1', creation: nowSeconds() } });
    this.send({ tag: 'ib', attrs: {}, content: [{ tag: 'offline', attrs: { count: '0' } }] });
  }

  async node(node) {
    this.network.received.push({ device: this.device?.jid, node });
    if (node.tag === 'iq') return this.iq(node);
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
        { tag: 'privacy', attrs: {}, content: categories.map((name) => ({ tag: 'category', attrs: { name, value: values[name] ?? 'contacts' } })) },
      ]);
    }
    if (xmlns === 'blocklist') return this.result(node, [{ tag: 'list', attrs: {} }]);
    if (xmlns === 'abt') return this.result(node, [{ tag: 'props', attrs: { protocol: '1', hash: 'fake' }, content: [] }]);
    if (xmlns === 'md' && first?.tag === 'remove-companion-device') return this.removeCompanion(node, first);
    return this.result(node);
  }

  uploadPreKeys(node) {
    if (!this.device) return this.result(node);
    for (const key of children(child(node, 'list'), 'key')) {
      this.device.preKeys.set(bytes(child(key, 'id').content).readUIntBE(0, 3), bytes(child(key, 'value').content));
    }
    const skey = child(node, 'skey');
    this.device.signedPreKey = {
      keyId: bytes(child(skey, 'id').content).readUIntBE(0, 3),
      public: bytes(child(skey, 'value').content),
      signature: bytes(child(skey, 'signature').content),
    };
    this.result(node);
  }

  removeCompanion(node, request) {
    const device = this.network.deviceByJid(request.attrs.jid);
    if (device) device.linked = false;
    this.result(node);
  }
}
