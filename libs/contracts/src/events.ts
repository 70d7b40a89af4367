/** Session events pass every event filter. */
export const SESSION_EVENT_TYPES = ['logged_in', 'logged_out', 'login_error', 'initial_sync_finished'] as const;

export const FILTERABLE_EVENT_TYPES = [
  'message',
  'message_status',
  'message_read',
  'message_delete',
  'message_star',
  'message_history_sync',
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
