// A rival session of one of our devices: another process logged in with the same credentials (a second gateway, a
// deploy that left the old worker running). Each time our device logs in, the rival's socket logs in again a moment
// later, and the server keeps the newest login: it ends ours with `<stream:error><conflict type="replaced"/>`, which
// Baileys reads as 440 connectionReplaced (rc14 `getErrorCodeFromStreamError`, CODE_MAP conflict → 440), exactly as
// `Connection.login` in network.mjs replaces an older connection of the device.
import { httpError } from './network.mjs';

export class Rivals {
  constructor(network) {
    this.network = network;
    /** Device → { remaining, delayMs, replaced: connection ids, timer }. */
    this.rivals = new Map();
  }

  /** The rival logs in after each of the device's logins, `times` times in all (then gives up), `delayMs` after it. */
  start(device, { times = 1, delayMs = 300 } = {}) {
    this.stop(device);
    const rival = { remaining: Number(times), delayMs: Number(delayMs), replaced: [], timer: undefined };
    this.rivals.set(device, rival);
    const watch = () => {
      const connection = this.network.connectionOf(device);
      if (rival.remaining > 0 && connection && !rival.replaced.includes(connection.id) && !rival.pending) {
        rival.pending = setTimeout(() => {
          rival.pending = undefined;
          if (connection.closed || !connection.loggedIn || rival.remaining <= 0) return;
          rival.remaining -= 1;
          rival.replaced.push(connection.id);
          connection.streamError(undefined, 'conflict', { type: 'replaced' });
        }, rival.delayMs);
      }
    };
    rival.timer = setInterval(watch, 25);
    return { replaced: rival.replaced };
  }

  stop(device) {
    const rival = this.rivals.get(device);
    if (!rival) return;
    clearInterval(rival.timer);
    clearTimeout(rival.pending);
    this.rivals.delete(device);
  }

  /** The connections of our device the rival replaced so far. */
  replaced(device) {
    return { replaced: [...(this.rivals.get(device)?.replaced ?? [])] };
  }
}

export function rivalRoutes(network, rivals) {
  const deviceOf = (jid) => {
    const device = network.deviceByJid(String(jid));
    if (!device) throw httpError(404, `no device ${jid}`);
    return device;
  };
  return [
    [/^POST \/devices\/rival$/, ({ body }) => rivals.start(deviceOf(body.jid), body)],
    [/^GET \/devices\/rival$/, ({ query }) => rivals.replaced(deviceOf(query.get('jid')))],
  ];
}
