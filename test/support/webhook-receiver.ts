import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  envelope: { eventId: string; instanceId: string; eventType: string; receivedAt: string; eventData: Record<string, unknown> };
}

/** What the receiver answers to one request: a status, optional headers, and an optional delay before answering. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as the test scripts it (per path). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, (hook: ReceivedWebhook) => Answer>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const hook: ReceivedWebhook = {
          at: Date.now(),
          path,
          headers: req.headers,
          rawBody,
          envelope: JSON.parse(rawBody) as ReceivedWebhook['envelope'],
        };
        this.received.push(hook);
        const answer: Answer = (this.scripts.get(path) ?? (() => ({ status: 200 })))(hook);
        const respond = (response: ServerResponse) => response.writeHead(answer.status, answer.headers).end('{"ok":true}');
        if (answer.delayMs) setTimeout(() => respond(res), answer.delayMs);
        else respond(res);
      });
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** How `path` answers from now on. */
  script(path: string, answer: (hook: ReceivedWebhook) => Answer): void {
    this.scripts.set(path, answer);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
