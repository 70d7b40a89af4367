// Link drops around a message stanza: the server relays a message our device sent to its recipients and then the link
// drops, before the server's ack left (`ack: false`) or right after it (`ack: true`). The real server never acks a
// stanza again on the next connection: a send whose ack was lost is settled only by what comes later, the recipient's
// delivery receipt. Dropping right after the ack fails whatever the client sends next on that socket (Baileys: Boom 428
// "Connection Closed"), as when the text copy of a buttons message follows the buttons. Late acks: the link stays up and
// the server acks the stanza only after a delay (longer than the client waits for it).
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';

const { jidDecode } = baileys;
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

export class LinkDrops {
  constructor(network) {
    this.network = network;
    /** Chat user (a contact's phone number or LID user) → `{ ack, remaining }`. */
    this.drops = new Map();
    /** Every stanza the link dropped after: `{ id, to, acked }`, for tests. */
    this.dropped = [];
    /** Connections closed by a drop. */
    this.droppedConnections = new WeakSet();
    /** Chat user → `{ delayMs, remaining }`: the server acks that many of our next messages late. */
    this.lateAcks = new Map();
  }

  /** The server acks each of our next `times` (default 1) messages to the contact `delayMs` late; the link stays up. */
  delayAcks({ phone, delayMs, times }) {
    const contact = this.network.contacts.get(String(phone));
    if (!contact) throw httpError(404, `no contact ${phone}`);
    const late = { delayMs: Number(delayMs), remaining: times === undefined ? 1 : Number(times) };
    for (const key of [contact.phone, contact.lidUser]) this.lateAcks.set(key, late);
    return { delayMs: late.delayMs };
  }

  /** The link drops after each of the next `times` (default 1) messages to the contact; `ack` null clears it. */
  set({ phone, ack, times }) {
    const contact = this.network.contacts.get(String(phone));
    if (!contact) throw httpError(404, `no contact ${phone}`);
    for (const key of [contact.phone, contact.lidUser]) {
      if (ack === null) this.drops.delete(key);
      else this.drops.set(key, { ack: ack === true, remaining: times === undefined ? 1 : Number(times) });
    }
    return { dropping: ack };
  }

  take(to, table = this.drops) {
    const key = jidDecode(to)?.user;
    const entry = key === undefined ? undefined : table.get(key);
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) for (const [other, value] of table) if (value === entry) table.delete(other);
    return entry;
  }

  /**
   * A message stanza to a contact whose link drop is set: acked only with `ack`, the socket closed at once (before the
   * client can write anything more on it), then relayed to the recipients as the server does with a stanza it took.
   * Stanzas still arriving on a dropped connection never made it: they are neither relayed nor acked.
   */
  async message(connection, node) {
    if (this.droppedConnections.has(connection)) return true;
    const late = node.attrs.to ? this.take(node.attrs.to, this.lateAcks) : undefined;
    if (late) {
      await connection.message(node, { ack: false });
      const ack = { tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } };
      setTimeout(() => connection.send(ack), late.delayMs).unref();
      return true;
    }
    const drop = node.attrs.to ? this.take(node.attrs.to) : undefined;
    if (!drop) return false;
    this.droppedConnections.add(connection);
    if (drop.ack) connection.send({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } });
    connection.socket.close();
    this.dropped.push({ id: node.attrs.id, to: node.attrs.to, acked: drop.ack });
    await connection.message(node, { ack: false });
    return true;
  }
}

export function linkDropHandlers(linkDrops) {
  return { message: (connection, node) => linkDrops.message(connection, node) };
}

export function linkDropRoutes(linkDrops) {
  return [
    [/^POST \/link-drops$/, ({ body }) => linkDrops.set(body)],
    [/^GET \/link-drops$/, () => linkDrops.dropped],
    [/^POST \/late-acks$/, ({ body }) => linkDrops.delayAcks(body)],
  ];
}
