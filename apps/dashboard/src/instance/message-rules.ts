// The composer's live checks: the same limits the API enforces (libs/contracts/src/message-limits.ts), with the
// API's own wording, so a person sees a refusal before sending instead of after.
import {
  MAX_BUTTON_ID_CHARS,
  MAX_BUTTON_TEXT_CHARS,
  MAX_BUTTONS,
  MAX_INTERACTIVE_FOOTER_CHARS,
  MAX_INTERACTIVE_HEADER_CHARS,
  MAX_INTERACTIVE_TEXT_CHARS,
  MAX_LIST_BUTTON_TEXT_CHARS,
  MAX_ROW_DESCRIPTION_CHARS,
  MAX_ROW_ID_CHARS,
  MAX_ROW_TITLE_CHARS,
  MAX_ROWS_TOTAL,
  MAX_SECTION_TITLE_CHARS,
  MAX_SECTIONS,
  MAX_TEXT_CHARS,
  MIN_BUTTONS,
  charCount,
} from '@contracts/message-limits';
import { readPhoneNumber } from '@contracts/phone-number';

/** Every limit by name, for the composer's counters. */
export * as LIMITS from '@contracts/message-limits';

export interface ReplyButtonDraft {
  id: string;
  text: string;
}

export interface ListRowDraft {
  id: string;
  title: string;
  description: string;
}

export interface ListSectionDraft {
  title: string;
  rows: ListRowDraft[];
}

export interface Draft {
  kind: 'text' | 'buttons' | 'list';
  to: string;
  text: string;
  header: string;
  footer: string;
  buttons: ReplyButtonDraft[];
  listButtonText: string;
  sections: ListSectionDraft[];
}

/** Problems keyed by the field path the API would name (`buttons[1].text`). */
export type Problems = Record<string, string>;

const blank = (value: string) => !/\S/u.test(value);

function checkChars(problems: Problems, path: string, value: string, max: number, required: boolean): void {
  if (required && blank(value)) problems[path] = 'is required';
  else if (charCount(value) > max) problems[path] = `must be at most ${max} characters (now ${charCount(value)})`;
}

function checkUnique(problems: Problems, paths: string[], values: string[]): void {
  values.forEach((value, index) => {
    if (value && values.indexOf(value) < index && !problems[paths[index]]) problems[paths[index]] = `duplicates ${JSON.stringify(value)}`;
  });
}

export function checkDraft(draft: Draft): Problems {
  const problems: Problems = {};
  if (blank(draft.to)) problems.to = 'is required';
  else if (!draft.to.includes('@')) {
    // The API's own reading of a number, so both accept and refuse the same strings in the same words.
    const { problem } = readPhoneNumber(draft.to);
    if (problem) problems.to = problem;
  }
  if (draft.kind === 'text') {
    checkChars(problems, 'text', draft.text, MAX_TEXT_CHARS, true);
    return problems;
  }
  checkChars(problems, 'text', draft.text, MAX_INTERACTIVE_TEXT_CHARS, true);
  checkChars(problems, 'header', draft.header, MAX_INTERACTIVE_HEADER_CHARS, false);
  checkChars(problems, 'footer', draft.footer, MAX_INTERACTIVE_FOOTER_CHARS, false);
  if (draft.kind === 'buttons') {
    if (draft.buttons.length < MIN_BUTTONS) problems.buttons = `must have at least ${MIN_BUTTONS} item`;
    if (draft.buttons.length > MAX_BUTTONS) problems.buttons = `must have at most ${MAX_BUTTONS} items`;
    draft.buttons.forEach((button, index) => {
      checkChars(problems, `buttons[${index}].text`, button.text, MAX_BUTTON_TEXT_CHARS, true);
      checkChars(problems, `buttons[${index}].id`, button.id, MAX_BUTTON_ID_CHARS, true);
    });
    checkUnique(
      problems,
      draft.buttons.map((_, index) => `buttons[${index}].id`),
      draft.buttons.map((button) => button.id),
    );
    return problems;
  }
  checkChars(problems, 'buttonText', draft.listButtonText, MAX_LIST_BUTTON_TEXT_CHARS, true);
  if (draft.sections.length > MAX_SECTIONS) problems.sections = `must have at most ${MAX_SECTIONS} items`;
  const totalRows = draft.sections.reduce((total, section) => total + section.rows.length, 0);
  if (totalRows > MAX_ROWS_TOTAL) problems.sections = `must have at most ${MAX_ROWS_TOTAL} rows in total (now ${totalRows})`;
  const several = draft.sections.length > 1;
  const rowPaths: string[] = [];
  const rowIds: string[] = [];
  draft.sections.forEach((section, sectionIndex) => {
    checkChars(problems, `sections[${sectionIndex}].title`, section.title, MAX_SECTION_TITLE_CHARS, false);
    if (several && blank(section.title)) problems[`sections[${sectionIndex}].title`] = 'is required when there is more than one section';
    if (section.rows.length === 0) problems[`sections[${sectionIndex}].rows`] = 'must have at least 1 item';
    section.rows.forEach((row, rowIndex) => {
      const path = `sections[${sectionIndex}].rows[${rowIndex}]`;
      checkChars(problems, `${path}.id`, row.id, MAX_ROW_ID_CHARS, true);
      checkChars(problems, `${path}.title`, row.title, MAX_ROW_TITLE_CHARS, true);
      checkChars(problems, `${path}.description`, row.description, MAX_ROW_DESCRIPTION_CHARS, false);
      rowPaths.push(`${path}.id`);
      rowIds.push(row.id);
    });
  });
  checkUnique(problems, rowPaths, rowIds);
  return problems;
}

/** The request body the API takes for the draft (empty optional fields left out). */
export function toRequestBody(draft: Draft): Record<string, unknown> {
  const to = draft.to.includes('@') ? draft.to.trim() : (readPhoneNumber(draft.to).digits ?? draft.to.trim());
  const optional = (name: string, value: string) => (value.trim() ? { [name]: value } : {});
  if (draft.kind === 'text') return { to, text: draft.text };
  const common = { to, text: draft.text, ...optional('header', draft.header), ...optional('footer', draft.footer) };
  if (draft.kind === 'buttons')
    return { ...common, buttons: draft.buttons.map((button) => ({ type: 'reply', id: button.id, text: button.text })) };
  return {
    ...common,
    buttonText: draft.listButtonText,
    sections: draft.sections.map((section) => ({
      ...optional('title', section.title),
      rows: section.rows.map((row) => ({ id: row.id, title: row.title, ...optional('description', row.description) })),
    })),
  };
}
