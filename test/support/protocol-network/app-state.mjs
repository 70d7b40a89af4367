// App-state sync on the fake network: the account's phone shares an app-state sync key with each companion it links
// (an `appStateSyncKeyShare` protocol message, as the phone does after pairing), the server keeps every collection's
// patches and answers `w:sync:app:state` requests with those a device lacks, the phone's chat changes (archive, mute,
// pin, star) become patches announced by a `server_sync` notification, and the patches our device uploads are checked
// by the phone with the MACs of the shared key and applied to what it shows.
//
// Every patch is built and checked with Baileys' own app-state code (`chatModificationToAppPatch`, `encodeSyncdPatch`,
// `decodePatches`: value MACs, index MACs, the patch MAC and the LTHash snapshot MAC), so the bytes are those the
// library writes and reads. The stanza shapes follow rc14's `Socket/chats.js` (`resyncAppState`, `appPatch`),
// `Utils/chat-utils.js` (`extractSyncdPatches`) and `Socket/messages-recv.js` (`server_sync` notifications).
//
// A device that asks from version 0 with `return_snapshot` gets a collection that has changes as a snapshot: its
// current records, the LTHash snapshot MAC of the newest version, encrypted as a file of type `md-app-state` on the
// media server and named by an ExternalBlobReference (direct path only: Baileys fetches it from the default media
// host, which the worker's test seam sends to this network's media server).
import { randomBytes } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
// Baileys' own key expansion for app state (rc14 `mutationKeys` in Utils/chat-utils.js calls it; it is not exported).
import { expandAppStateKeys } from 'whatsapp-rust-bridge';
import { httpError } from './network.mjs';
import { encryptMedia } from './media-server.mjs';

const {
  proto,
  chatModificationToAppPatch,
  encodeSyncdPatch,
  decodePatches,
  newLTHashState,
  makeLtHashGenerator,
  hmacSign,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  S_WHATSAPP_NET,
} = baileys;

/** The collections a WhatsApp account keeps (rc14 `ALL_WA_PATCH_NAMES`). */
export const COLLECTIONS = ['critical_block', 'critical_unblock_low', 'regular_high', 'regular_low', 'regular'];

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** A Baileys logger that keeps the warnings its app-state decoder writes when a MAC does not verify. */
function verifyingLogger() {
  const warnings = [];
  const logger = {
    level: 'warn',
    trace() {},
    debug() {},
    info() {},
    error(data, message) {
      warnings.push(message ?? String(data));
    },
    warn(data, message) {
      warnings.push(typeof message === 'string' ? `${message}${data?.error ? `: ${data.error}` : ''}` : String(data));
    },
    child: () => logger,
  };
  return { logger, warnings };
}

/** What one account keeps: its sync key, the server's copy of every collection, and what its phone shows. */
class AccountAppState {
  constructor() {
    const keyId = randomBytes(6);
    this.keyId = keyId.toString('base64');
    this.key = {
      keyData: randomBytes(32),
      fingerprint: { rawId: randomBytes(4).readUInt32BE(0), currentIndex: 0, deviceIndexes: [0] },
      timestamp: Date.now(),
    };
    /** name -> { state (the LTHash state after the newest patch), patches: [{ version, bytes }] } */
    this.collections = new Map(COLLECTIONS.map((name) => [name, { state: newLTHashState(), patches: [] }]));
    /** index (JSON) -> the sync action's value: the phone's view of every chat and message setting. */
    this.records = new Map();
    /** Patches from our devices the phone refused, with Baileys' reason. */
    this.rejected = [];
    /** Devices that already hold the key. */
    this.shared = new Set();
  }

  getKey = async (id) => (id === this.keyId ? proto.Message.AppStateSyncKeyData.fromObject(this.key) : undefined);

  apply(mutationMap) {
    for (const { index, syncAction } of Object.values(mutationMap)) {
      this.records.set(JSON.stringify(index), proto.SyncActionValue.toObject(syncAction.value, { longs: Number, defaults: false }));
    }
  }

  /** Every chat an app-state record names. */
  chatIds() {
    return [...new Set([...this.records.keys()].map((indexJson) => JSON.parse(indexJson)[1]))];
  }

  /** The phone's view: each chat's archive, pin and mute, and the starred messages. */
  view() {
    const chats = {};
    const starred = [];
    const chat = (jid) => (chats[jid] ??= {});
    for (const [indexJson, value] of this.records) {
      const [action, jid, messageId, fromMe] = JSON.parse(indexJson);
      if (action === 'archive') chat(jid).archived = Boolean(value.archiveChatAction?.archived);
      if (action === 'pin_v1') chat(jid).pinned = Boolean(value.pinAction?.pinned);
      if (action === 'mute') {
        chat(jid).muted = Boolean(value.muteAction?.muted);
        if (value.muteAction?.muted) chat(jid).muteEndTimestamp = Number(value.muteAction.muteEndTimestamp ?? 0);
      }
      if (action === 'star' && value.starAction?.starred) starred.push({ chatJid: jid, id: messageId, fromMe: fromMe === '1' });
    }
    const versions = Object.fromEntries([...this.collections].map(([name, { state }]) => [name, state.version]));
    return { keyId: this.keyId, chats, starred, versions, rejected: this.rejected };
  }
}

export class AppState {
  constructor(network, media) {
    this.network = network;
    this.media = media;
    this.accounts = new Map();
    /**
     * Phones that share their key with each device they link, at its first login (before the history sync), as a real
     * phone does. Opt-in per account, so the other suites keep the protocol they were written against (the takeover
     * suite lost a message after its handover with it on in two runs on a loaded machine, and passed three of three on
     * a quiet one: see the closing note of issue 26).
     */
    this.sharingAtPairing = new Set();
    /** Every snapshot served: the collection, its version, how many records, the blob's direct path. */
    this.snapshots = [];
    // A phone's initial history lists the chats it shows; the chats' settings reach the new device as app state (rc14
    // applies a chat update of the initial app-state sync only to a chat the history or an upsert named).
    network.bootstrapConversations.push((account) =>
      this.accounts.has(account)
        ? this.of(account)
            .chatIds()
            .map((id) => ({ id }))
        : [],
    );
  }

  of(account) {
    if (!this.accounts.has(account)) this.accounts.set(account, new AccountAppState());
    return this.accounts.get(account);
  }

  /**
   * The phone shares the account's app-state sync key with a newly linked companion: an `appStateSyncKeyShare`
   * protocol message (rc14 `process-message.js` stores it and sets `myAppStateKeyId`).
   */
  /** At a device's first login: the key share, for the phones that share at pairing. */
  async firstLogin(device) {
    if (this.sharingAtPairing.has(device.account.phone)) await this.shareKey(device);
  }

  async shareKey(device) {
    const appState = this.of(device.account);
    await this.network.sendFromPhone(device, {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
        appStateSyncKeyShare: { keys: [{ keyId: { keyId: Buffer.from(appState.keyId, 'base64') }, keyData: appState.key }] },
      },
    });
    appState.shared.add(device);
  }

  /**
   * The phone changes a chat or a message (`mod` as Baileys' `chatModify` takes it): one patch on the collection the
   * action belongs to, then a `server_sync` notification to every linked device. `corrupt` spoils the patch MAC of
   * what the server stores (the phone itself made the change all the same).
   */
  async phoneChange(account, mod, chatJid, { corrupt = false } = {}) {
    const appState = this.of(account);
    const create = chatModificationToAppPatch(mod, chatJid);
    const collection = appState.collections.get(create.type);
    const { patch, state } = await encodeSyncdPatch(create, appState.keyId, collection.state, appState.getKey);
    patch.version = { version: state.version };
    if (corrupt) patch.patchMac = Buffer.from(patch.patchMac).map((byte) => byte ^ 0xff);
    collection.patches.push({ version: state.version, bytes: Buffer.from(proto.SyncdPatch.encode(patch).finish()) });
    collection.state = state;
    appState.records.set(
      JSON.stringify(create.index),
      proto.SyncActionValue.toObject(proto.SyncActionValue.fromObject(create.syncAction), { longs: Number, defaults: false }),
    );
    this.announce(account, create.type, state.version);
    return { collection: create.type, version: state.version, index: create.index };
  }

  /** The server tells each linked device that a collection moved on (rc14 `messages-recv.js` `server_sync`). */
  announce(account, name, version, except) {
    for (const device of this.network.devices.filter((d) => d.account === account && d.linked && d !== except)) {
      this.network.deliver(device, {
        tag: 'notification',
        attrs: { from: S_WHATSAPP_NET, type: 'server_sync', id: this.network.stanzaId(), t: nowSeconds() },
        content: [{ tag: 'collection', attrs: { name, version: String(version) } }],
      });
    }
  }

  /** `w:sync:app:state`: a device uploads a patch (a `patch` child) or asks for what it lacks since `version`. */
  async iq(connection, node) {
    if (node.attrs.xmlns !== 'w:sync:app:state' || !connection.device) return false;
    const appState = this.of(connection.device.account);
    const answers = [];
    for (const request of getBinaryNodeChildren(getBinaryNodeChild(node, 'sync'), 'collection')) {
      const { name } = request.attrs;
      const collection = appState.collections.get(name);
      if (!collection) {
        answers.push({
          tag: 'collection',
          attrs: { name, type: 'error' },
          content: [{ tag: 'error', attrs: { code: '404', text: 'item-not-found' } }],
        });
        continue;
      }
      const upload = getBinaryNodeChild(request, 'patch');
      const fromScratch = request.attrs.return_snapshot === 'true' && collection.patches.length > 0;
      answers.push(
        upload
          ? await this.upload(connection, appState, name, collection, request, upload)
          : fromScratch
            ? await this.snapshot(appState, name, collection)
            : this.patchesSince(name, collection, request),
      );
    }
    connection.result(node, [{ tag: 'sync', attrs: {}, content: answers }]);
    return true;
  }

  /**
   * The collection at its newest version as one snapshot (rc14 `extractSyncdPatches` downloads it, `decodeSyncdSnapshot`
   * checks its MAC): the records every patch left set, and the MAC of their LTHash, the version and the collection's
   * name under the sync key's snapshot MAC key (rc14 `generateSnapshotMac`). The blob is uploaded to the media server.
   */
  async snapshot(appState, name, collection) {
    const records = new Map();
    for (const { bytes } of collection.patches) {
      for (const { operation, record } of proto.SyncdPatch.decode(bytes).mutations) {
        const index = Buffer.from(record.index.blob).toString('base64');
        records.delete(index);
        if (operation === proto.SyncdMutation.SyncdOperation.SET) records.set(index, record);
      }
    }
    const version = collection.state.version;
    const ltHash = makeLtHashGenerator(newLTHashState());
    for (const record of records.values()) {
      const value = Buffer.from(record.value.blob);
      ltHash.mix({
        indexMac: record.index.blob,
        valueMac: value.subarray(value.length - 32),
        operation: proto.SyncdMutation.SyncdOperation.SET,
      });
    }
    const networkOrderVersion = Buffer.alloc(8);
    networkOrderVersion.writeUInt32BE(version, 4);
    const { snapshotMacKey } = expandAppStateKeys(appState.key.keyData);
    const mac = hmacSign(
      Buffer.concat([Buffer.from(ltHash.finish().hash), networkOrderVersion, Buffer.from(name)]),
      Buffer.from(snapshotMacKey),
      'sha256',
    );
    const plain = proto.SyncdSnapshot.encode({
      version: { version },
      records: [...records.values()],
      mac,
      keyId: { id: Buffer.from(appState.keyId, 'base64') },
    }).finish();
    const file = await encryptMedia(Buffer.from(plain), 'md-app-state');
    const { directPath } = this.media.store(file.encrypted);
    const reference = proto.ExternalBlobReference.encode({
      mediaKey: file.mediaKey,
      directPath,
      fileSizeBytes: file.fileLength,
      fileSha256: file.fileSha256,
      fileEncSha256: file.fileEncSha256,
    }).finish();
    this.snapshots.push({ collection: name, version: collection.state.version, records: records.size, directPath });
    return {
      tag: 'collection',
      attrs: { name, version: String(collection.state.version), has_more_patches: 'false' },
      content: [{ tag: 'snapshot', attrs: {}, content: Buffer.from(reference) }],
    };
  }

  /** The patches after the device's version, inline (`<patches>`), as `extractSyncdPatches` reads them. */
  patchesSince(name, collection, request) {
    const since = Number(request.attrs.version ?? 0);
    const missing = collection.patches.filter((patch) => patch.version > since);
    return {
      tag: 'collection',
      attrs: { name, version: String(collection.state.version), has_more_patches: 'false' },
      content: missing.length
        ? [{ tag: 'patches', attrs: {}, content: missing.map((patch) => ({ tag: 'patch', attrs: {}, content: patch.bytes })) }]
        : undefined,
    };
  }

  /**
   * A patch our device made (rc14 `appPatch`). The server takes it only on top of the newest version (a device behind
   * must sync first: 409 conflict). It keeps the patch, tells the account's other devices, and the phone checks it with
   * Baileys' decoder (patch MAC, value and index MACs, LTHash snapshot MAC) and applies it when they all verify.
   */
  async upload(connection, appState, name, collection, request, upload) {
    const base = Number(request.attrs.version ?? 0);
    if (base !== collection.state.version) {
      return { tag: 'collection', attrs: { name, type: 'error' }, content: [{ tag: 'error', attrs: { code: '409', text: 'conflict' } }] };
    }
    const patch = proto.SyncdPatch.decode(Buffer.from(upload.content));
    const version = base + 1;
    patch.version = { version };
    const { logger, warnings } = verifyingLogger();
    const { state, mutationMap } = await decodePatches(
      name,
      [patch],
      collection.state,
      appState.getKey,
      undefined,
      undefined,
      logger,
      true,
    );
    collection.patches.push({ version, bytes: Buffer.from(proto.SyncdPatch.encode({ ...patch, version: { version } }).finish()) });
    if (warnings.length === 0) {
      collection.state = state;
      appState.apply(mutationMap);
    } else {
      // The server keeps what it was given; the phone refuses a patch whose MACs do not verify.
      collection.state = { ...state, version };
      appState.rejected.push({ collection: name, version, from: connection.device.jid, reasons: warnings });
    }
    this.announce(connection.device.account, name, version, connection.device);
    return { tag: 'collection', attrs: { name, version: String(version) } };
  }
}

export function appStateHandlers(appState) {
  return { iq: (connection, node) => appState.iq(connection, node) };
}

const MODS = {
  archive: ({ archived = true }) => ({ archive: archived, lastMessages: [] }),
  pin: ({ pinned = true }) => ({ pin: pinned }),
  // `muteEndTimestamp` in epoch milliseconds, as WhatsApp clients write it; null unmutes.
  mute: ({ muteEndTimestamp }) => ({ mute: muteEndTimestamp ?? null }),
  star: ({ messageId, fromMe = false, starred = true }) => ({ star: { messages: [{ id: messageId, fromMe }], star: starred } }),
};

export function appStateRoutes(network, appState) {
  const accountOf = (phone) => {
    const account = network.accounts.get(String(phone));
    if (!account) throw httpError(404, `no account ${phone}`);
    return account;
  };
  return [
    [
      /^POST \/app-state\/phone-change$/,
      ({ body }) => {
        const mod = MODS[body.action];
        if (!mod) throw httpError(400, `action must be one of ${Object.keys(MODS).join(', ')}`);
        return appState.phoneChange(accountOf(body.phone), mod(body), String(body.chat), { corrupt: Boolean(body.corrupt) });
      },
    ],
    [/^GET \/app-state$/, ({ query }) => appState.of(accountOf(query.get('phone'))).view()],
    [/^GET \/app-state\/snapshots$/, () => appState.snapshots],
    [
      /^POST \/app-state\/share-at-pairing$/,
      ({ body }) => {
        appState.sharingAtPairing.add(String(body.phone));
        return { ok: true };
      },
    ],
    [
      /^POST \/app-state\/share-key$/,
      async ({ body }) => {
        const account = accountOf(body.phone);
        const shared = appState.of(account).shared;
        const devices = network.devices.filter((device) => device.account === account && device.linked && !shared.has(device));
        for (const device of devices) await appState.shareKey(device);
        return { devices: devices.map((device) => device.jid) };
      },
    ],
  ];
}
