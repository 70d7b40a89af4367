// A Signal protocol participant of the fake network: a contact's phone or the account's own phone. It holds its own
// identity, signed pre-key and one-time pre-keys, and its own sessions, and uses the `libsignal` package Baileys
// depends on, so it decrypts what our device encrypts and encrypts what our device must decrypt exactly as a peer would.
import { randomInt } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import libsignal from 'libsignal';

const { Curve, signedKeyPair, generateSignalPubKey, encodeWAMessage, unpadRandomMax16, proto } = baileys;

export class SignalParty {
  /** `identity`: a Curve key pair to reuse (the account's phone signs with the same key it holds as its identity). */
  constructor(identity = Curve.generateKeyPair()) {
    this.identity = identity;
    this.registrationId = randomInt(1, 16_380);
    this.signedPreKey = signedKeyPair(identity, randomInt(1, 1_000));
    this.preKeys = new Map();
    this.nextPreKeyId = 1;
    this.sessions = new Map();
    const party = this;
    this.storage = {
      loadSession: async (id) => party.sessions.get(id),
      storeSession: async (id, record) => void party.sessions.set(id, record),
      isTrustedIdentity: () => true,
      loadPreKey: async (id) => {
        const pair = party.preKeys.get(Number(id));
        return pair && { privKey: pair.private, pubKey: pair.public };
      },
      removePreKey: async (id) => void party.preKeys.delete(Number(id)),
      loadSignedPreKey: async () => ({ privKey: party.signedPreKey.keyPair.private, pubKey: party.signedPreKey.keyPair.public }),
      getOurRegistrationId: async () => party.registrationId,
      getOurIdentity: async () => ({ privKey: party.identity.private, pubKey: generateSignalPubKey(party.identity.public) }),
    };
  }

  /** A pre-key bundle as the server hands it out, with a fresh one-time pre-key each time (never handed out twice). */
  bundle() {
    const id = this.nextPreKeyId++;
    const pair = Curve.generateKeyPair();
    this.preKeys.set(id, pair);
    return {
      registrationId: this.registrationId,
      identityKey: this.identity.public,
      signedPreKey: { keyId: this.signedPreKey.keyId, publicKey: this.signedPreKey.keyPair.public, signature: this.signedPreKey.signature },
      preKey: { keyId: id, publicKey: pair.public },
    };
  }

  /** Decrypts an `<enc>` our device sent; `peer` names the sending device (one session store per peer device). */
  async decrypt(peer, type, ciphertext) {
    const cipher = new libsignal.SessionCipher(this.storage, peer);
    const plaintext =
      type === 'pkmsg'
        ? await cipher.decryptPreKeyWhisperMessage(Buffer.from(ciphertext))
        : await cipher.decryptWhisperMessage(Buffer.from(ciphertext));
    return proto.Message.decode(unpadRandomMax16(plaintext));
  }

  /** Encrypts a message for our device, starting a session from its pre-key bundle when there is none. */
  async encrypt(peer, message, bundleOfPeer) {
    if (!this.sessions.get(peer.toString())?.haveOpenSession()) {
      const bundle = bundleOfPeer();
      await new libsignal.SessionBuilder(this.storage, peer).initOutgoing({
        registrationId: bundle.registrationId,
        identityKey: generateSignalPubKey(bundle.identityKey),
        signedPreKey: { ...bundle.signedPreKey, publicKey: generateSignalPubKey(bundle.signedPreKey.publicKey) },
        preKey: bundle.preKey && { ...bundle.preKey, publicKey: generateSignalPubKey(bundle.preKey.publicKey) },
      });
    }
    const { type, body } = await new libsignal.SessionCipher(this.storage, peer).encrypt(encodeWAMessage(message));
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') };
  }
}

/** The libsignal address a party keeps our device's sessions under. */
export function peerAddress(device) {
  return new libsignal.ProtocolAddress(`${device.account.lidUser}_1`, device.deviceId);
}
