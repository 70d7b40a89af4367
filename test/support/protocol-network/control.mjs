// The control API tests use to play the phone, the contacts and the server's operators.
import { httpError } from './network.mjs';

function deviceOf(network, jid) {
  const device = network.deviceByJid(jid);
  if (!device) throw httpError(404, `no device ${jid}`);
  return device;
}

function contactOf(network, phone) {
  const contact = network.contacts.get(String(phone));
  if (!contact) throw httpError(404, `no contact ${phone}`);
  return contact;
}

/** [pattern over "METHOD /path", handler] pairs. */
export function controlRoutes(network) {
  return [
    [/^GET \/health$/, () => ({ ok: true })],
    [/^POST \/phone\/scan$/, ({ body }) => network.scan(body.qr, body.phone ?? '447700900123')],
    [/^POST \/phone\/pair-code$/, ({ body }) => network.enterPairCode(String(body.phone), String(body.code))],
    [
      /^GET \/devices$/,
      () =>
        network.devices.map((device) => ({
          jid: device.jid,
          lid: device.lid,
          linked: device.linked,
          connected: Boolean(network.connectionOf(device)),
          preKeys: device.preKeys.size,
          logins: device.logins ?? 0,
        })),
    ],
    [
      /^GET \/devices\/pre-keys$/,
      ({ query }) => {
        const device = deviceOf(network, String(query.get('jid')));
        return { held: [...device.preKeys.keys()], reused: device.reusedPreKeyIds };
      },
    ],
    [/^GET \/devices\/links$/, ({ query }) => network.links(deviceOf(network, String(query.get('jid'))))],
    [/^POST \/devices\/pre-key-low$/, ({ body }) => network.preKeyLow(deviceOf(network, body.jid))],
    [
      /^POST \/devices\/disconnect$/,
      ({ body }) => {
        network.disconnect(deviceOf(network, body.jid), body.code);
        return { ok: true };
      },
    ],
    [
      /^POST \/contacts$/,
      ({ body }) => {
        const contact = network.contact(String(body.phone), body.name, body.lid?.split('@')[0]);
        return { jid: contact.jid, lid: contact.lid, name: contact.name };
      },
    ],
    [/^POST \/contacts\/send$/, ({ body }) => network.sendFromContact(contactOf(network, body.from), deviceOf(network, body.to), body)],
    [
      /^POST \/contacts\/receipt$/,
      ({ body }) => {
        network.receiptFromContact(contactOf(network, body.from), deviceOf(network, body.to), body.ids, body.type);
        return { ok: true };
      },
    ],
    [/^GET \/contacts\/inbox$/, ({ query }) => contactOf(network, query.get('phone')).inbox],
    [
      /^GET \/accounts\/inbox$/,
      ({ query }) => {
        const account = network.accounts.get(String(query.get('phone')));
        if (!account) throw httpError(404, 'no such account');
        return account.inbox;
      },
    ],
    [
      /^POST \/addressing$/,
      ({ body }) => {
        if (!['pn', 'lid'].includes(body.mode)) throw httpError(400, 'mode must be pn or lid');
        network.addressing = body.mode;
        return { mode: network.addressing };
      },
    ],
    [/^GET \/received$/, () => network.received],
    [
      /^GET \/pairing$/,
      () =>
        [...network.connections]
          .filter((c) => c.registration && !c.closed && !c.pendingDevice)
          .map((c) => ({
            refs: c.refs,
            noiseKey: c.registration.noiseKey.toString('base64'),
            identityKey: c.registration.identityKey.toString('base64'),
            platform: c.registration.deviceProps.os,
          })),
    ],
    [
      /^GET \/connections$/,
      () =>
        [...network.connections].map((c) => ({ device: c.device?.jid ?? null, loggedIn: c.loggedIn, pairing: Boolean(c.registration) })),
    ],
  ];
}
