import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { WebSocket } from 'ws';

/** A socket whose client has this much unread is not keeping up: it is closed (the client reconnects and resumes). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Above this, keep-alive comments are skipped (the services check `writableNeedDrain`), as on a full TCP buffer. */
const NEED_DRAIN_BYTES = 256 * 1024;

/** What the console's socket sends for one subscription. */
export type SubscriptionMessage =
  | { id: string; type: 'open' }
  | { id: string; type: 'frame'; frame: string }
  | { id: string; type: 'end' }
  | { id: string; type: 'error'; status: number; detail: string };

export function sendMessage(socket: WebSocket, message: SubscriptionMessage): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * One subscription of a console socket, shaped like the `ServerResponse` of a Server-Sent Events route, so the very
 * services behind `/events/stream` and `/account/instances/stream` feed it unchanged (same cursor, resume point, gap
 * frames, key revocation, slot limits). Each SSE frame a service writes travels as one socket message.
 */
export class SocketStreamResponse extends EventEmitter {
  writableEnded = false;
  /** The services set TCP_NODELAY on a response's socket; a WebSocket message is already sent as a whole. */
  readonly socket = null;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly id: string,
  ) {
    super();
  }

  /** The subscription as the services take it (they use only what this class implements). */
  asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }

  get destroyed(): boolean {
    return this.closed || this.ws.readyState !== WebSocket.OPEN;
  }

  get writableNeedDrain(): boolean {
    return this.ws.bufferedAmount > NEED_DRAIN_BYTES;
  }

  writeHead(): this {
    sendMessage(this.ws, { id: this.id, type: 'open' });
    return this;
  }

  flushHeaders(): void {
    // Nothing is buffered: writeHead already sent the "open" message.
  }

  write(frame: string | Buffer): boolean {
    if (this.destroyed || this.writableEnded) return false;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return false;
    }
    sendMessage(this.ws, { id: this.id, type: 'frame', frame: frame.toString() });
    return true;
  }

  /** The service ended the stream (shutdown, revoked key, deleted instance): the client decides whether to resubscribe. */
  end(): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    sendMessage(this.ws, { id: this.id, type: 'end' });
    this.close();
    return this;
  }

  /** The client unsubscribed or the socket went away: the service releases what the stream held. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}
