/** A feed the console subscribes to over its socket. */
export type SubscribeMessage =
  | { type: 'subscribe'; id: string; stream: 'instances' }
  | { type: 'subscribe'; id: string; stream: 'events'; instanceId: string; after?: number; lastEventId?: string };

export type ClientMessage = SubscribeMessage | { type: 'unsubscribe'; id: string };

const ID = /^[A-Za-z0-9_-]{1,40}$/;
const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SEQUENCE = /^\d{1,15}$/;

/** The client's message when it is one the socket understands, else null (the socket is then closed). */
export function parseClientMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Record<string, unknown>;
  if (typeof message.id !== 'string' || !ID.test(message.id)) return null;
  if (message.type === 'unsubscribe') return { type: 'unsubscribe', id: message.id };
  if (message.type !== 'subscribe') return null;
  if (message.stream === 'instances') return { type: 'subscribe', id: message.id, stream: 'instances' };
  if (message.stream !== 'events' || typeof message.instanceId !== 'string' || !INSTANCE_ID.test(message.instanceId)) return null;
  const after = message.after;
  if (after !== undefined && !(typeof after === 'number' && Number.isSafeInteger(after) && after >= 0)) return null;
  const lastEventId = message.lastEventId;
  if (lastEventId !== undefined && !(typeof lastEventId === 'string' && SEQUENCE.test(lastEventId))) return null;
  return { type: 'subscribe', id: message.id, stream: 'events', instanceId: message.instanceId, after, lastEventId };
}
