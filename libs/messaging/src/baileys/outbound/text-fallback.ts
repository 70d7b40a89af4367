import { createHash } from 'node:crypto';
import { optionalText, records, requiredText, type Payload } from './payload-fields';

function buttonLine(button: Payload, number: number): string {
  const label = requiredText(button, 'text');
  switch (optionalText(button, 'type') ?? 'reply') {
    case 'url':
      return `${number}. ${label}: ${requiredText(button, 'url')}`;
    case 'copy':
      return `${number}. ${label}: ${requiredText(button, 'copyCode')}`;
    case 'call':
      return `${number}. ${label}: ${requiredText(button, 'phoneNumber')}`;
    default:
      return `${number}. ${label}`;
  }
}

function listBlocks(payload: Payload): string[] {
  let number = 0;
  return records(payload, 'sections').map((section) => {
    const title = optionalText(section, 'title');
    const rows = records(section, 'rows').map((row) => {
      number += 1;
      const description = optionalText(row, 'description');
      return `${number}. ${requiredText(row, 'title')}${description ? ` - ${description}` : ''}`;
    });
    return [...(title ? [`*${title}*`] : []), ...rows].join('\n');
  });
}

/**
 * A buttons or list message as plain text, for clients that do not render native-flow messages: the header in bold,
 * the body, the options numbered (links, codes and numbers written out, since nothing can be tapped), the footer in
 * italics. Answers to it arrive as ordinary text messages.
 */
export function fallbackText(kind: 'buttons' | 'list', payload: Payload): string {
  const header = optionalText(payload, 'header');
  const footer = optionalText(payload, 'footer');
  const options =
    kind === 'list'
      ? listBlocks(payload)
      : [
          records(payload, 'buttons')
            .map((button, index) => buttonLine(button, index + 1))
            .join('\n'),
        ];
  return [...(header ? [`*${header}*`] : []), requiredText(payload, 'text'), ...options, ...(footer ? [`_${footer}_`] : [])].join('\n\n');
}

/**
 * The id of the text sent after an interactive message: derived from the message's own id, in the network's format,
 * so a retried send reuses it and recipients see the copy once.
 */
export function fallbackMessageId(messageId: string): string {
  return `3EB0${createHash('sha256').update(`${messageId}:text`).digest('hex').slice(0, 18).toUpperCase()}`;
}
