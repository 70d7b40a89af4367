// The responder side of WhatsApp Web's Noise handshake (Noise_XX_25519_AESGCM_SHA256 behind the "WA" prologue) and the
// transport that follows it, built from Baileys' own crypto exports so both ends share one implementation of each
// primitive. The server hello carries a certificate chain signed by this fake network's own root key; Baileys accepts
// it only when WA_CERT_DETAILS.PUBLIC_KEY is that root key (the test seam the worker enables).
import * as baileys from '@whiskeysockets/baileys';

const {
  Curve,
  hkdf,
  sha256,
  aesEncryptGCM,
  aesDecryptGCM,
  proto,
  NOISE_MODE,
  NOISE_WA_HEADER,
  WA_CERT_DETAILS,
  encodeBinaryNode,
  decodeBinaryNode,
} = baileys;

const EMPTY = Buffer.alloc(0);

function counterIv(counter) {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(counter, 8);
  return iv;
}

/** The network's certificate authority: a root key (trusted by the client through the seam) and one intermediate. */
export function makeCertificateAuthority() {
  const root = Curve.generateKeyPair();
  const intermediate = Curve.generateKeyPair();
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 1,
    issuerSerial: WA_CERT_DETAILS.SERIAL,
    key: intermediate.public,
  }).finish();
  return {
    rootPublicKey: root.public,
    /** The chain a server static key presents: leaf signed by the intermediate, intermediate signed by the root. */
    chainFor(serverStaticPublic) {
      const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({ serial: 2, issuerSerial: 1, key: serverStaticPublic }).finish();
      return proto.CertChain.encode({
        leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
        intermediate: { details: intermediateDetails, signature: Curve.sign(root.private, intermediateDetails) },
      }).finish();
    },
  };
}

class CipherState {
  constructor(key) {
    this.key = key;
    this.counter = 0;
  }
  encrypt(plaintext) {
    return aesEncryptGCM(plaintext, this.key, counterIv(this.counter++), EMPTY);
  }
  decrypt(ciphertext) {
    return aesDecryptGCM(ciphertext, this.key, counterIv(this.counter++), EMPTY);
  }
}

/**
 * One connection's Noise state, responder side. Feed it the raw WebSocket messages; it calls `onHandshake(clientPayload,
 * clientStaticKey)` once the client's finish message is verified, then `onNode(node)` for every binary node.
 */
export class NoiseResponder {
  constructor(authority, { send, onHandshake, onNode, onError }) {
    this.authority = authority;
    this.sendRaw = send;
    this.onHandshake = onHandshake;
    this.onNode = onNode;
    this.onError = onError;
    this.inBytes = EMPTY;
    this.sawIntro = false;
    this.stage = 'hello';
    this.static = Curve.generateKeyPair();
    this.ephemeral = Curve.generateKeyPair();
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode.length === 32 ? mode : sha256(mode);
    this.salt = this.hash;
    this.key = this.hash;
    this.counter = 0;
    this.chain = Promise.resolve();
  }

  authenticate(data) {
    this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  mixIntoKey(data) {
    const derived = hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' });
    this.salt = derived.subarray(0, 32);
    this.key = derived.subarray(32);
    this.counter = 0;
  }

  encryptAndHash(plaintext) {
    const ciphertext = aesEncryptGCM(plaintext, this.key, counterIv(this.counter++), this.hash);
    this.authenticate(ciphertext);
    return ciphertext;
  }

  decryptAndHash(ciphertext) {
    const plaintext = aesDecryptGCM(ciphertext, this.key, counterIv(this.counter++), this.hash);
    this.authenticate(ciphertext);
    return plaintext;
  }

  /** Frames arrive in any split; each is processed in order, after the previous one's (async) decoding. */
  receive(data) {
    this.chain = this.chain.then(() => this.consume(Buffer.from(data))).catch((error) => this.onError(error));
  }

  async consume(data) {
    this.inBytes = Buffer.concat([this.inBytes, data]);
    if (!this.sawIntro) {
      if (this.inBytes.length < NOISE_WA_HEADER.length) return;
      const intro = this.inBytes.subarray(0, NOISE_WA_HEADER.length);
      if (!intro.equals(NOISE_WA_HEADER)) throw new Error(`unexpected intro ${intro.toString('hex')}`);
      this.inBytes = this.inBytes.subarray(NOISE_WA_HEADER.length);
      this.sawIntro = true;
      this.authenticate(NOISE_WA_HEADER);
    }
    while (this.inBytes.length >= 3) {
      const size = (this.inBytes[0] << 16) | (this.inBytes[1] << 8) | this.inBytes[2];
      if (this.inBytes.length < size + 3) return;
      const frame = this.inBytes.subarray(3, size + 3);
      this.inBytes = this.inBytes.subarray(size + 3);
      await this.frame(frame);
    }
  }

  async frame(frame) {
    if (this.stage === 'hello') return this.serverHello(frame);
    if (this.stage === 'finish') return this.clientFinish(frame);
    const node = await decodeBinaryNode(this.readCipher.decrypt(frame));
    await this.onNode(node);
  }

  serverHello(frame) {
    const { clientHello } = proto.HandshakeMessage.decode(frame);
    if (!clientHello?.ephemeral?.length) throw new Error('expected a client hello');
    this.clientEphemeral = Buffer.from(clientHello.ephemeral);
    this.authenticate(this.clientEphemeral);
    this.authenticate(this.ephemeral.public);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, this.clientEphemeral));
    const staticCiphertext = this.encryptAndHash(this.static.public);
    this.mixIntoKey(Curve.sharedKey(this.static.private, this.clientEphemeral));
    const payload = this.encryptAndHash(this.authority.chainFor(this.static.public));
    this.stage = 'finish';
    this.writeFrame(
      proto.HandshakeMessage.encode({ serverHello: { ephemeral: this.ephemeral.public, static: staticCiphertext, payload } }).finish(),
    );
  }

  async clientFinish(frame) {
    const { clientFinish } = proto.HandshakeMessage.decode(frame);
    if (!clientFinish?.static || !clientFinish.payload) throw new Error('expected a client finish');
    const clientStatic = Buffer.from(this.decryptAndHash(clientFinish.static));
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decryptAndHash(clientFinish.payload));
    const transport = hkdf(EMPTY, 64, { salt: this.salt, info: '' });
    // The initiator writes with the first half and reads with the second: the responder mirrors it.
    this.readCipher = new CipherState(transport.subarray(0, 32));
    this.writeCipher = new CipherState(transport.subarray(32));
    this.stage = 'transport';
    await this.onHandshake(payload, clientStatic);
  }

  writeFrame(data) {
    const frame = Buffer.alloc(3 + data.length);
    frame.writeUIntBE(data.length, 0, 3);
    data.copy ? data.copy(frame, 3) : frame.set(data, 3);
    this.sendRaw(frame);
  }

  sendNode(node) {
    if (this.stage !== 'transport') throw new Error('the handshake has not finished');
    this.writeFrame(this.writeCipher.encrypt(encodeBinaryNode(node)));
  }
}
