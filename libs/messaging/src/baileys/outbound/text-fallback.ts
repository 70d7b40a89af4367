import { createHash } from 'node:crypto';
import type { InteractiveButton, ListPayload, OutboundMessage } from '@app/contracts';

function buttonLine(button: InteractiveButton, number: number): string {
  const label = button.text;
  switch (button.type) {
    case 'url':
      return `${number}. ${label}: ${button.url}`;
    case 'copy':
      return `${number}. ${label}: ${button.copyCode}`;
    case 'call':
      return `${number}. ${label}: ${button.phoneNumber}`;
    case 'reply':
      return `${number}. ${label}`;
  }
}

function listBlocks(payload: ListPayload): string[] {
  let number = 0;
  return payload.sections.map((section) => {
    const rows = section.rows.map((row) => {
      number += 1;
      return `${number}. ${row.title}${row.description ? ` - ${row.description}` : ''}`;
    });
    return [...(section.title ? [`*${section.title}*`] : []), ...rows].join('\n');
  });
}

/**
 * A buttons or list message as plain text, for clients that do not render native-flow messages: the header in bold,
 * the body, the options numbered (links, codes and numbers written out, since nothing can be tapped), the footer in
 * italics. Answers to it arrive as ordinary text messages.
 */
export function fallbackText(message: OutboundMessage<'buttons' | 'list'>): string {
  const { header, footer, text } = message.payload;
  const options =
    message.kind === 'list'
      ? listBlocks(message.payload)
      : [message.payload.buttons.map((button, index) => buttonLine(button, index + 1)).join('\n')];
  return [...(header ? [`*${header}*`] : []), text, ...options, ...(footer ? [`_${footer}_`] : [])].join('\n\n');
}

/**
 * The id of the text sent after an interactive message: derived from the message's own id, in the network's format,
 * so a retried send reuses it and recipients see the copy once.
 */
export function fallbackMessageId(messageId: string): string {
  return `3EB0${createHash('sha256').update(`${messageId}:text`).digest('hex').slice(0, 18).toUpperCase()}`;
}
