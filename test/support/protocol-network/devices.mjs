// Contacts with several devices on the fake network: companions that join and leave a contact's account (each its own
// Signal party, so each decrypts its own copy of our sends), the server's `devices` notifications that announce them,
// and a contact who reinstalls WhatsApp (a new identity key, announced by an `encrypt` notification with <identity/>).
//
// Shapes: rc14 `Socket/messages-recv.js` handleDevicesNotification reads `<notification type="devices" from=user>`
// with one child `add` | `remove` | `update` (attr `device_hash`) holding `<device jid="user:N@server">`; whatsmeow's
// `handleDeviceNotification` reads the same child plus `key-index-list` (an ADVSignedKeyIndexList, attr `ts`).
// handleEncryptNotification passes any non-server `encrypt` notification with an <identity/> child to
// `Utils/identity-change-handler.js`, which refreshes the session with a new pre-key bundle.
import { createHash, randomInt } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';
import { SignalParty } from './signal-party.mjs';

const { Curve, proto } = baileys;

const ADV_KEY_INDEX_LIST_SIGNATURE_PREFIX = Buffer.from([6, 2]);
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

export class ContactDevices {
  constructor(network) {
    this.network = network;
  }

  contactOf(phone) {
    const contact = this.network.contacts.get(String(phone));
    if (!contact) throw httpError(404, `no contact ${phone}`);
    return contact;
  }

  /** The contact's user JID in the network's addressing mode, and a device of it. */
  userJid(contact) {
    return this.network.addressing === 'lid' ? contact.lid : contact.jid;
  }

  deviceJid(contact, deviceId) {
    return this.userJid(contact).replace('@', `:${deviceId}@`);
  }

  /** The contact links a companion (WhatsApp Web, a tablet): a new device with its own Signal identity. */
  add(phone, notify = true) {
    const contact = this.contactOf(phone);
    const deviceId = contact.nextDeviceId++;
    contact.devices.set(deviceId, new SignalParty());
    const notified = notify ? this.notify(contact, 'add', [deviceId]) : [];
    return { device: deviceId, jid: contact.jid.replace('@', `:${deviceId}@`), lid: contact.lid.replace('@', `:${deviceId}@`), notified };
  }

  /** The contact unlinks a companion: the server stops taking copies for it. */
  remove(phone, deviceId, notify = true) {
    const contact = this.contactOf(phone);
    if (!Number(deviceId) || !contact.devices.delete(Number(deviceId))) throw httpError(404, `${phone} has no companion ${deviceId}`);
    const notified = notify ? this.notify(contact, 'remove', [Number(deviceId)]) : [];
    return { devices: [...contact.devices.keys()], notified };
  }

  /**
   * The contact reinstalls WhatsApp: the phone comes back with a new identity key, new pre-keys and no sessions (its
   * companions are unlinked with it, as a re-registration logs them out). The server tells every device that talks to
   * the contact with an `encrypt` notification carrying <identity/>.
   */
  reinstall(phone, notify = true) {
    const contact = this.contactOf(phone);
    const removed = [...contact.devices.keys()].filter((id) => id !== 0);
    contact.phone0 = new SignalParty();
    contact.devices = new Map([[0, contact.phone0]]);
    const notified = removed.length && notify ? this.notify(contact, 'remove', removed) : [];
    if (notify) {
      notified.push(
        ...this.broadcast({
          tag: 'notification',
          attrs: { from: this.userJid(contact), type: 'encrypt', id: this.network.stanzaId(), t: nowSeconds() },
          content: [{ tag: 'identity', attrs: {} }],
        }),
      );
    }
    return { notified, identityKey: Buffer.from(contact.phone0.identity.public).toString('base64') };
  }

  /** A `devices` notification about the contact's device list, to every device of every account on the network (ids). */
  notify(contact, tag, deviceIds) {
    const ids = [...contact.devices.keys()];
    const details = proto.ADVKeyIndexList.encode({
      rawId: randomInt(1, 2 ** 31),
      timestamp: Math.floor(Date.now() / 1000),
      currentIndex: Math.max(...ids),
      validIndexes: ids.filter((id) => id !== 0),
    }).finish();
    const signed = proto.ADVSignedKeyIndexList.encode({
      details,
      accountSignature: Curve.sign(contact.phone0.identity.private, Buffer.concat([ADV_KEY_INDEX_LIST_SIGNATURE_PREFIX, details])),
    }).finish();
    // The device hash names the new list (WA Web: a hash over the device ids); the client only logs it.
    const deviceHash = createHash('sha256').update(ids.join(',')).digest('base64').slice(0, 8);
    return this.broadcast({
      tag: 'notification',
      attrs: { from: this.userJid(contact), type: 'devices', id: this.network.stanzaId(), t: nowSeconds() },
      content: [
        {
          tag,
          attrs: { device_hash: deviceHash },
          content: [
            ...deviceIds.map((id) => ({ tag: 'device', attrs: { jid: this.deviceJid(contact, id), 'key-index': String(id) } })),
            { tag: 'key-index-list', attrs: { ts: nowSeconds() }, content: signed },
          ],
        },
      ],
    });
  }

  /** Delivers the notification to every linked device (queued while one is offline); resolves with the stanza ids. */
  broadcast(node) {
    return this.network.devices
      .filter((d) => d.linked)
      .map((device) => {
        const id = this.network.stanzaId();
        this.network.deliver(device, { ...node, attrs: { ...node.attrs, id } });
        return id;
      });
  }
}

export function deviceRoutes(devices) {
  return [
    [/^POST \/contacts\/devices$/, ({ body }) => devices.add(body.phone, body.notify !== false)],
    [/^POST \/contacts\/devices\/remove$/, ({ body }) => devices.remove(body.phone, body.device, body.notify !== false)],
    [/^POST \/contacts\/reinstall$/, ({ body }) => devices.reinstall(body.phone, body.notify !== false)],
  ];
}
