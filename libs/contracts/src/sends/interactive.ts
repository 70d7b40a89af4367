import type { BUTTON_TYPES } from '../message-limits';

export type ButtonType = (typeof BUTTON_TYPES)[number];

/** A button and the one field of its type: reply → id, url → url, copy → copyCode, call → phoneNumber. */
export type InteractiveButton =
  | { type: 'reply'; text: string; id: string }
  | { type: 'url'; text: string; url: string }
  | { type: 'copy'; text: string; copyCode: string }
  | { type: 'call'; text: string; phoneNumber: string };

/** Buttons and lists take none of the common send options. */
interface InteractivePayload {
  /** The body. */
  text: string;
  header?: string;
  footer?: string;
  /** Show the AI badge (one-to-one chats only); the API always writes it, a payload without it means false. */
  aiLabel?: boolean;
}

export interface ButtonsPayload extends InteractivePayload {
  buttons: InteractiveButton[];
}

export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

export interface ListSection {
  title?: string;
  rows: ListRow[];
}

export interface ListPayload extends InteractivePayload {
  /** The label of the button that opens the list. */
  buttonText: string;
  sections: ListSection[];
}
