import type { EventEnvelopeDto as EventEnvelope } from '@messaging-gateway/client';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const count = (value: unknown) => (typeof value === 'number' ? String(value) : '?');
const clip = (value: string, max = 80) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);
/** A chat or sender as a person reads it: the phone number, not the JID (senders are objects with `phone`). */
function who(party: unknown): string {
  if (party && typeof party === 'object') {
    const { phone, id } = party as { phone?: unknown; id?: unknown };
    return text(phone) ?? who(id);
  }
  return text(party)?.replace(/@.*$/, '') ?? 'someone';
}

/** One line a person can read at a glance; the raw JSON is one click away for everything else. */
export function summarizeEvent(event: EventEnvelope): string {
  const data = event.eventData;
  switch (event.eventType) {
    case 'message': {
      const reply = data.buttonReply as { id?: string; text?: string } | undefined;
      const row = data.listReply as { id?: string; title?: string } | undefined;
      const mine = (data.sender as { isMe?: unknown } | undefined)?.isMe === true;
      const direction = mine ? `to ${who(data.chatId)}` : `from ${who(data.sender ?? data.chatId)}`;
      if (reply) return `Button “${reply.text ?? reply.id}” tapped ${direction}`;
      if (row) return `List row “${row.title ?? row.id}” chosen ${direction}`;
      const body = text(data.text) ?? text(data.caption);
      return `${text(data.type) ?? 'message'} ${direction}${body ? `: ${clip(body)}` : ''}`;
    }
    case 'message_status':
      return `Message ${clip(text(data.id) ?? '', 24)} ${text(data.status) ?? ''}${text(data.error) ? `: ${clip(text(data.error) ?? '')}` : ''}`;
    case 'instance_sending':
      return data.state === 'paused'
        ? `Sends paused after ${count(data.refusals)} refusals (${count(data.code)}); a probe at ${text(data.probeAt) ?? '?'}`
        : 'Sends resumed: the probe was taken';
    case 'instance_connection':
      return data.state === 'failed'
        ? `Proxy failed (${text(data.reason) ?? '?'}): ${clip(text(data.detail) ?? '')}`
        : 'Connected through the proxy again';
    case 'message_read': {
      const ids = Array.isArray(data.messageIds) ? data.messageIds.length : 0;
      return `${text(data.receiptType) ?? 'read'} by ${who(data.sender ?? data.chatId)} · ${ids} message${ids === 1 ? '' : 's'}`;
    }
    case 'message_undecryptable':
      return `Message from ${who(data.sender ?? data.chatId)} could not be decrypted${text(data.reason) ? ` (${clip(text(data.reason) ?? '', 48)})` : ''}`;
    case 'logged_in':
      return `Paired as ${text(data.deviceId) ?? 'a device'}`;
    case 'logged_out':
      return `Logged out${text(data.reason) ? ` (${text(data.reason)})` : ''}`;
    case 'login_error':
      return `Pairing refused: ${text(data.error) ?? 'unknown reason'}`;
    case 'initial_sync_finished':
      return 'History sync finished';
    default: {
      const hint = text(data.id) ?? text(data.chatId) ?? text(data.type);
      return hint ? `${event.eventType.replace(/_/g, ' ')} · ${clip(hint, 48)}` : event.eventType.replace(/_/g, ' ');
    }
  }
}
