// The control API tests use to play the phone, the contacts and the server's operators.
import { httpError } from './network.mjs';

function deviceOf(network, jid) {
  const device = network.deviceByJid(jid);
  if (!device) throw httpError(404, `no device ${jid}`);
  return device;
}

/** [pattern over "METHOD /path", handler] pairs. */
export function controlRoutes(network) {
  return [
    [/^GET \/health$/, () => ({ ok: true })],
    [/^POST \/phone\/scan$/, ({ body }) => network.scan(body.qr, body.phone ?? '447700900123')],
    [
      /^GET \/devices$/,
      () =>
        network.devices.map((device) => ({
          jid: device.jid,
          lid: device.lid,
          linked: device.linked,
          connected: Boolean(network.connectionOf(device)),
          preKeys: device.preKeys.size,
        })),
    ],
    [
      /^POST \/devices\/disconnect$/,
      ({ body }) => {
        network.disconnect(deviceOf(network, body.jid), body.code);
        return { ok: true };
      },
    ],
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
      () => [...network.connections].map((c) => ({ device: c.device?.jid ?? null, loggedIn: c.loggedIn, pairing: Boolean(c.registration) })),
    ],
  ];
}
