// The limits of interactive and text sends, in one place: the API's DTOs enforce them and the dashboard's composer
// checks them as the user types. Pure constants (no Node imports) so the browser bundle can import this file alone.

export const MAX_TEXT_CHARS = 4096;

export const MAX_INTERACTIVE_TEXT_CHARS = 1024;
export const MAX_INTERACTIVE_HEADER_CHARS = 60;
export const MAX_INTERACTIVE_FOOTER_CHARS = 60;

export const MAX_BUTTON_TEXT_CHARS = 20;
export const MAX_BUTTON_ID_CHARS = 256;
export const MAX_COPY_CODE_CHARS = 256;
export const MIN_BUTTONS = 1;
export const MAX_BUTTONS = 3;
/** The contract's pattern for call buttons. */
export const PHONE_NUMBER = /^\+?[1-9]\d{6,14}$/;
export const BUTTON_TYPES = ['reply', 'url', 'copy', 'call'] as const;
export const MAX_URL_CHARS = 2048;

export const MAX_LIST_BUTTON_TEXT_CHARS = 20;
export const MIN_SECTIONS = 1;
export const MAX_SECTIONS = 10;
export const MAX_SECTION_TITLE_CHARS = 24;
export const MIN_ROWS_PER_SECTION = 1;
export const MAX_ROWS_TOTAL = 10;
export const MAX_ROW_ID_CHARS = 200;
export const MAX_ROW_TITLE_CHARS = 24;
export const MAX_ROW_DESCRIPTION_CHARS = 72;

/** Lengths count code points, as the network does: an emoji is one character. */
export function charCount(value: string): number {
  return [...value].length;
}
