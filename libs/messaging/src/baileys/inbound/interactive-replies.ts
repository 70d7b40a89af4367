import type { proto } from '@whiskeysockets/baileys';
import type { MessageContent } from '../../events/normalise';

/** What the tapped message offered: a list (rows) or buttons; undefined when the gateway does not hold it. */
export type Offered = 'list' | 'buttons' | undefined;

export interface InteractiveReply {
  content: Extract<MessageContent, { type: 'button_reply' | 'list_reply' }>;
  /** The message the tap answers (`contextInfo.stanzaId`). */
  answers?: string;
}

/** A malformed or hostile `paramsJson` (megabytes of NULs have been seen in the wild) is not parsed. */
const MAX_PARAMS_JSON = 64 * 1024;

export const INTERACTIVE_REPLIES = [
  'buttonsResponseMessage',
  'templateButtonReplyMessage',
  'listResponseMessage',
  'interactiveResponseMessage',
] as const;

/**
 * A button or list tap, from whichever of the four proto forms the phone used. Undefined when the content is none of
 * them or names no id (a native-flow form submission, say): such content is no reply the contract knows.
 */
export function interactiveReply(content: proto.IMessage, offered: Offered): InteractiveReply | undefined {
  if (content.buttonsResponseMessage) {
    const reply = content.buttonsResponseMessage;
    return button(reply.selectedButtonId, reply.selectedDisplayText, reply.contextInfo);
  }
  if (content.templateButtonReplyMessage) {
    const reply = content.templateButtonReplyMessage;
    return button(reply.selectedId, reply.selectedDisplayText, reply.contextInfo);
  }
  if (content.listResponseMessage) {
    const reply = content.listResponseMessage;
    return list(reply.singleSelectReply?.selectedRowId, reply.title, reply.description, reply.contextInfo);
  }
  if (content.interactiveResponseMessage) return nativeFlow(content.interactiveResponseMessage, offered);
  return undefined;
}

/** What a stored message the gateway sent offered to tap. */
export function offeredBy(content: proto.IMessage | null | undefined): Offered {
  if (!content) return undefined;
  if (content.listMessage) return 'list';
  const flow = content.interactiveMessage?.nativeFlowMessage;
  if (flow?.buttons?.some((button) => button.name === 'single_select')) return 'list';
  if (content.interactiveMessage || content.buttonsMessage || content.templateMessage) return 'buttons';
  return undefined;
}

function nativeFlow(response: proto.Message.IInteractiveResponseMessage, offered: Offered): InteractiveReply | undefined {
  const flow = response.nativeFlowResponseMessage;
  const params = parseParams(flow?.paramsJson);
  const label = response.body?.text || undefined;
  // The reply does not say whether a row or a button was tapped; the message it answers does, when it is stored.
  const isList = offered ? offered === 'list' : flow?.name === 'single_select';
  if (isList) return list(params.id, label ?? params.title, params.description, response.contextInfo);
  return button(params.id, label ?? params.display_text, response.contextInfo);
}

function button(id: unknown, text: unknown, info: proto.IContextInfo | null | undefined): InteractiveReply | undefined {
  const replyId = idOf(id);
  if (replyId === undefined) return undefined;
  return { content: { type: 'button_reply', id: replyId, text: textOf(text) }, answers: info?.stanzaId || undefined };
}

function list(
  id: unknown,
  title: unknown,
  description: unknown,
  info: proto.IContextInfo | null | undefined,
): InteractiveReply | undefined {
  const replyId = idOf(id);
  if (replyId === undefined) return undefined;
  return {
    content: { type: 'list_reply', id: replyId, title: textOf(title), description: textOf(description) },
    answers: info?.stanzaId || undefined,
  };
}

function parseParams(json: string | null | undefined): Record<string, unknown> {
  if (!json || json.length > MAX_PARAMS_JSON) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
