/** One dispatched Server-Sent Events message (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseMessage {
  /** The `id:` field of this message, when it had one. */
  id?: string;
  /** The `event:` field; `message` when absent. */
  event: string;
  data: string;
  /** A `retry:` field: the server's reconnection delay in milliseconds. */
  retry?: number;
}

/**
 * Turns the text of an event stream, in chunks as they arrive, into messages. Chunks may split lines, and a CR at the
 * end of one chunk may be followed by the LF of the next: both are handled, so the result never depends on how the
 * network cut the stream.
 */
export class SseParser {
  private pending = '';
  private trailingCr = false;
  private id: string | undefined;
  private event = '';
  private data: string[] = [];
  private retry: number | undefined;
  private hasFields = false;

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.trailingCr && text.startsWith('\n')) text = text.slice(1);
    this.trailingCr = text.endsWith('\r');
    const lines = (this.pending + text).split(/\r\n|\r|\n/);
    this.pending = lines.pop() ?? '';
    const messages: SseMessage[] = [];
    for (const line of lines) {
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        return undefined;
    }
    this.hasFields = true;
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    if (!this.hasFields) return undefined;
    const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) message.id = this.id;
    if (this.retry !== undefined) message.retry = this.retry;
    this.id = undefined;
    this.event = '';
    this.data = [];
    this.retry = undefined;
    this.hasFields = false;
    return message;
  }
}
