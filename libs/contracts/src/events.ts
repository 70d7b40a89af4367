/** Session events pass every event filter. */
export const SESSION_EVENT_TYPES = ['logged_in', 'logged_out', 'login_error', 'initial_sync_finished'] as const;

const FILTERABLE_EVENT_TYPES = [
  'message',
  'message_status',
  'instance_sending',
  'instance_connection',
  'message_read',
  'message_delete',
  'message_star',
  'message_history_sync',
  'message_undecryptable',
  'chat_setting',
  'chat_presence',
  'chat_push_name',
  'chat_status',
  'chat_picture',
  'contact',
  'group',
  'newsletter',
  'user_presence',
  'call_offer',
  'call_accept',
  'call_terminate',
] as const;

export const EVENT_TYPES = [...SESSION_EVENT_TYPES, ...FILTERABLE_EVENT_TYPES] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Whether an instance's `eventFilters` allow-list lets an event through (empty = everything; session events always). */
export function passesEventFilters(eventType: EventType, filters: readonly string[]): boolean {
  return filters.length === 0 || (SESSION_EVENT_TYPES as readonly string[]).includes(eventType) || filters.includes(eventType);
}

/**
 * Redis pub/sub channel on which the worker announces every committed event as `<instanceId> <seq>`, so pull-mode
 * streams wake at once. Only a wake-up: readers always read the event log itself, which is the source of truth.
 */
export function eventsChannel(queuePrefix: string): string {
  return `${queuePrefix}:events:appended`;
}

export function eventAnnouncement(instanceId: string, seq: bigint | number): string {
  return `${instanceId} ${seq}`;
}

export function parseEventAnnouncement(message: string): { instanceId: string; seq: bigint } | null {
  const match = /^(\S+) (\d+)$/.exec(message);
  return match ? { instanceId: match[1], seq: BigInt(match[2]) } : null;
}
