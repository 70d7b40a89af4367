// Our device's Signal sessions with one contact, driven through Baileys' own transaction layer, cacheable key store and
// Signal repository over our auth state (a key store as slow as a database round trip), while sends and inbound
// messages cross. Then a "takeover": a fresh cache and transaction layer over the stored keys only. Prints one JSON
// line: what the contact decrypted of our sends and what we decrypted of its messages, in both phases.
// `--unserialised` leaves Baileys' transaction keys as they are (the behaviour before the fix), for comparison.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as baileys from '@whiskeysockets/baileys';
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js';
import { SignalParty, peerAddress } from './signal-party.mjs';

const require = createRequire(import.meta.url);
const built = join(dirname(fileURLToPath(import.meta.url)), '../../../dist/libs/messaging/src/baileys');
const { loadAuthState } = require(join(built, 'auth-state.js'));
const { serialiseSignalTransactions } = require(join(built, 'session/signal-transactions.js'));
const { bufferJson } = require(join(built, 'buffer-json.js'));
const { addTransactionCapability, makeCacheableSignalKeyStore, initAuthCreds, proto, encodeWAMessage, unpadRandomMax16, Curve } = baileys;

const serialised = !process.argv.includes('--unserialised');
const CROSSING = 6;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
// libsignal reports failed decryptions on the console; the result line says what failed.
console.log = console.info = console.warn = console.error = () => undefined;

const rows = new Map();
const store = {
  async credentials() { return null; },
  async saveCredentials() {},
  async keys(_instance, type, ids) {
    await sleep(Math.random() * 2);
    return new Map(ids.filter((id) => rows.has(`${type}/${id}`)).map((id) => [id, rows.get(`${type}/${id}`)]));
  },
  async writeKeys(_instance, writes) {
    await sleep(Math.random() * 2);
    for (const { type, id, value } of writes) value === null ? rows.delete(`${type}/${id}`) : rows.set(`${type}/${id}`, value);
  },
  async clear() { rows.clear(); },
};

const creds = initAuthCreds();
creds.me = { id: '447700900200:5@s.whatsapp.net', lid: '999000111222333:5@lid' };
const device = { account: { lidUser: '999000111222333' }, deviceId: 5 };
const contactJid = '123456789012345@lid';
const contact = new SignalParty();

/** One worker's view: Baileys' layers over our auth state, as `makeWASocket` builds them. */
async function worker() {
  const auth = await loadAuthState({ instanceId: 'crossing', store, initCredentials: () => creds });
  auth.state.creds = creds;
  const keys = addTransactionCapability(makeCacheableSignalKeyStore(auth.state.keys, silent), silent, { maxCommitRetries: 3, delayBetweenTriesMs: 10 });
  if (serialised) serialiseSignalTransactions(keys);
  return { keys, repository: makeLibSignalRepository({ creds, keys }, silent, async () => []) };
}

/** Our one-time pre-key as the server hands it to the contact. */
function ourBundle() {
  const id = creds.nextPreKeyId++;
  const pair = Curve.generateKeyPair();
  rows.set(`pre-key/${id}`, bufferJson.stringify(pair));
  return {
    registrationId: creds.registrationId,
    identityKey: creds.signedIdentityKey.public,
    signedPreKey: { keyId: creds.signedPreKey.keyId, publicKey: creds.signedPreKey.keyPair.public, signature: creds.signedPreKey.signature },
    preKey: { keyId: id, publicKey: pair.public },
  };
}

let ours = await worker();
// A send runs in a transaction under our own JID, as `relayMessage` does; a decryption under the sender's JID.
const send = (text) =>
  ours.keys.transaction(() => ours.repository.encryptMessage({ jid: contactJid, data: encodeWAMessage({ conversation: text }) }), creds.me.id);
const receive = async (encrypted) =>
  proto.Message.decode(unpadRandomMax16(await ours.repository.decryptMessage({ jid: contactJid, ...encrypted }))).conversation;
const contactSends = (text) => contact.encrypt(peerAddress(device), proto.Message.fromObject({ conversation: text }), ourBundle);
const contactReads = async ({ type, ciphertext }) => (await contact.decrypt(peerAddress(device), type, ciphertext)).conversation;
const attempt = (promise) => promise.catch((error) => `failed: ${error.message}`);

// Sessions in both directions, ratcheted in turn.
const before = [await attempt(receive(await contactSends('in 0'))), await attempt(contactReads(await send('out 0')))];
before.push(await attempt(receive(await contactSends('in 1'))));

const inbound = [];
for (let n = 1; n <= CROSSING; n += 1) inbound.push(await contactSends(`crossing in ${n}`));
const crossed = await Promise.all([
  ...Array.from({ length: CROSSING }, (_, n) => send(`crossing out ${n + 1}`)),
  ...inbound.map((message) => attempt(receive(message))),
]);
const crossingOut = [];
for (const message of crossed.slice(0, CROSSING)) crossingOut.push(await attempt(contactReads(message)));

ours = await worker();
const after = [await attempt(receive(await contactSends('in after'))), await attempt(contactReads(await send('out after')))];
after.push(await attempt(receive(await contactSends('in after 2'))));

process.stdout.write(`${JSON.stringify({ before, crossingOut, crossingIn: crossed.slice(CROSSING), after })}\n`);
