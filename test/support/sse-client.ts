import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { EventEnvelope } from '@app/contracts';
import { eventually } from './event-log';

export interface SseMessage {
  id: number;
  event: EventEnvelope;
  raw: string;
  at: number;
}

/** A message with an `event:` line (anything but a plain envelope), with its data parsed as JSON. */
export interface SseNamedEvent {
  type: string;
  id: number | undefined;
  data: unknown;
  raw: string;
}

/** A Server-Sent Events reader over plain node:http, keeping every message and comment it saw. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  readonly named: SseNamedEvent[] = [];
  readonly comments: string[] = [];
  readonly others: string[] = [];
  /** Every block in arrival order, as received. */
  readonly blocks: string[] = [];
  ended = false;
  endedAt: number | undefined;
  private text = '';
  private buffer = '';

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly request: ClientRequest,
  ) {}

  static open(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(new URL(path, baseUrl), { headers: { Accept: 'text/event-stream', ...headers } });
      request.on('error', reject);
      request.on('response', (response) => {
        const client = new SseClient(response.statusCode ?? 0, response.headers, request);
        const ended = () => {
          if (client.ended) return;
          client.ended = true;
          client.endedAt = Date.now();
        };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => client.receive(chunk));
        response.on('end', ended);
        response.on('close', ended);
        response.on('error', () => undefined);
        request.removeListener('error', reject);
        request.on('error', () => undefined);
        resolve(client);
      });
      request.end();
    });
  }

  get ids(): number[] {
    return this.messages.map((message) => message.id);
  }

  /** The whole body of an error response. */
  async json(): Promise<unknown> {
    await eventually(
      () => Promise.resolve(this.ended),
      (ended) => ended,
    );
    return JSON.parse(this.text) as unknown;
  }

  async waitFor(check: (client: SseClient) => boolean, timeoutMs = 10_000): Promise<void> {
    await eventually(
      () => Promise.resolve(this),
      (client) => check(client),
      timeoutMs,
    );
  }

  close(): void {
    this.request.destroy();
  }

  /** What a failed wait reports of the stream. */
  toJSON(): object {
    return {
      status: this.status,
      ended: this.ended,
      ids: this.ids,
      named: this.named.length,
      comments: this.comments,
      others: this.others,
    };
  }

  private receive(chunk: string): void {
    this.text += chunk;
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.blocks.push(block);
      if (block.startsWith(':')) {
        this.comments.push(block);
        continue;
      }
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (type !== undefined && data !== undefined) {
        this.named.push({ type, id: id === undefined ? undefined : Number(id), data: JSON.parse(data) as unknown, raw: `${block}\n\n` });
        continue;
      }
      if (id === undefined || data === undefined) {
        this.others.push(block);
        continue;
      }
      this.messages.push({ id: Number(id), event: JSON.parse(data) as EventEnvelope, raw: `${block}\n\n`, at: Date.now() });
    }
  }
}
