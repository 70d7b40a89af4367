import { WebSocket } from 'ws';
import { eventually } from './event-log';

export type SocketMessage =
  | { id: string; type: 'open' }
  | { id: string; type: 'frame'; frame: string }
  | { id: string; type: 'end' }
  | { id: string; type: 'error'; status: number; detail: string };

/** The console's socket (`/dashboard/socket`) as a test drives it: every message kept, in arrival order. */
export class ConsoleSocketClient {
  readonly messages: SocketMessage[] = [];
  closeCode: number | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.messages.push(JSON.parse(data.toString('utf8')) as SocketMessage));
    ws.on('close', (code) => (this.closeCode = code));
  }

  /** Opens the socket with the session cookie and the page's Origin, as the console's pages do. */
  static open(baseUrl: string, sessionToken: string): Promise<ConsoleSocketClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/dashboard/socket`, {
        headers: { Cookie: `mgw_session=${sessionToken}` },
        origin: baseUrl,
      });
      const client = new ConsoleSocketClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The HTTP answer to an upgrade that is refused: its status and JSON body. */
  static refusal(baseUrl: string, headers: Record<string, string>, origin?: string): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/dashboard/socket`, { headers, ...(origin ? { origin } : {}) });
      ws.once('open', () => {
        ws.close();
        reject(new Error('the upgrade was accepted'));
      });
      ws.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      });
      ws.once('error', () => undefined);
    });
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  of(id: string): SocketMessage[] {
    return this.messages.filter((message) => message.id === id);
  }

  /** The data lines of the subscription's frames, parsed as JSON; keep-alive comments are left out. */
  dataOf(id: string): Array<{ id?: string; data: unknown }> {
    return this.of(id).flatMap((message) => {
      if (message.type !== 'frame') return [];
      const lines = message.frame.split('\n');
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
      if (data.length === 0) return [];
      const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
      return [{ ...(id ? { id } : {}), data: JSON.parse(data.join('\n')) as unknown }];
    });
  }

  async waitFor(check: (client: ConsoleSocketClient) => boolean, timeoutMs = 10_000): Promise<void> {
    await eventually(
      () => Promise.resolve(check(this)),
      (done) => done,
      timeoutMs,
    );
  }

  close(): void {
    this.ws.close();
  }
}
