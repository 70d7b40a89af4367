// Error acks: the server refusing a message stanza our device sent instead of relaying it. WhatsApp answers such a
// stanza with `<ack class="message" id=".." from="<the chat>" error="<code>"/>` and delivers nothing; Baileys rc14
// reads exactly `id`, `from` and `error` of it (`handleBadAck` in lib/Socket/messages-recv.js, registered on
// `CB:ack,class:message`) and emits `messages.update` with status ERROR and `messageStubParameters: [code, ...]`.
// The codes Baileys knows (`SERVER_ERROR_CODES`, `NACK_REASONS` in lib/Utils/decode-wa-message.js): 463 (1:1 message
// without privacy token: the account is restricted from reaching out), 479 (SMAX invalid: stanza rejected), and 421
// as the Baileys tracker reports it for sends the server refuses under rate limits.
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';

const { jidDecode } = baileys;
const nowSeconds = () => String(Math.floor(Date.now() / 1000));
const CODES = new Set([421, 463, 479]);

export class ErrorAcks {
  constructor(network) {
    this.network = network;
    /** Chat user (a contact's phone number or LID user, or a group id) → `{ code, remaining }` (remaining: null = always). */
    this.refusals = new Map();
    /** Every stanza refused: `{ id, to, code }`, for tests. */
    this.refused = [];
  }

  /** Sets (or with code null clears) the refusal of a contact (by phone) or a group (by id), optionally for `times` sends. */
  set({ phone, group, code, times }) {
    const keys = [];
    if (group) keys.push(String(group).split('@')[0]);
    if (phone !== undefined) {
      const contact = this.network.contacts.get(String(phone));
      if (!contact) throw httpError(404, `no contact ${phone}`);
      keys.push(contact.phone, contact.lidUser);
    }
    if (keys.length === 0) throw httpError(400, 'name a contact (phone) or a group');
    if (code !== null && !CODES.has(Number(code))) throw httpError(400, `code must be one of ${[...CODES].join(', ')}, or null`);
    for (const key of keys) {
      if (code === null) this.refusals.delete(key);
      else this.refusals.set(key, { code: Number(code), remaining: times === undefined ? null : Number(times) });
    }
    return { refusing: code };
  }

  /** The refusal that applies to a stanza addressed to `to` (a user, device or group JID), used up by one send. */
  take(to) {
    const key = jidDecode(to)?.user;
    const refusal = key === undefined ? undefined : this.refusals.get(key);
    if (!refusal) return undefined;
    if (refusal.remaining !== null) {
      refusal.remaining -= 1;
      if (refusal.remaining <= 0) {
        for (const [other, value] of this.refusals) if (value === refusal) this.refusals.delete(other);
      }
    }
    return refusal.code;
  }

  /** A message stanza to a refusing chat: answered with the error ack, relayed to nobody. */
  message(connection, node) {
    const code = node.attrs.to ? this.take(node.attrs.to) : undefined;
    if (code === undefined) return false;
    this.refused.push({ id: node.attrs.id, to: node.attrs.to, code });
    connection.send({
      tag: 'ack',
      attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds(), error: String(code) },
    });
    return true;
  }
}

export function errorAckHandlers(errorAcks) {
  return { message: (connection, node) => errorAcks.message(connection, node) };
}

export function errorAckRoutes(errorAcks) {
  return [
    [/^POST \/refusals$/, ({ body }) => errorAcks.set(body)],
    [/^GET \/refusals$/, () => errorAcks.refused],
  ];
}
