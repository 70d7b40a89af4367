import { requestHeaders, type Credentials } from './http';

export interface SseMessage {
  id?: string;
  data: string;
}

interface StreamOptions {
  instanceId?: string;
  credentials?: Credentials;
  signal: AbortSignal;
  onMessage: (message: SseMessage) => void;
  onOpen?: () => void;
}

/** Splits a text/event-stream into messages; comment lines (`: keep-alive`) and unknown fields are ignored. */
export function parseSseBlock(block: string): SseMessage | null {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { id, data: data.join('\n') } : null;
}

/**
 * Reads a Server-Sent Events stream with fetch and a stream reader (EventSource cannot send X-Instance-Id),
 * until the signal aborts or the server closes it. Rejects when the stream cannot be opened.
 */
export async function readEventStream(path: string, options: StreamOptions): Promise<void> {
  const headers = requestHeaders({ instanceId: options.instanceId, credentials: options.credentials });
  headers.set('Accept', 'text/event-stream');
  const response = await fetch(path, { headers, credentials: 'same-origin', signal: options.signal, cache: 'no-store' });
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
  options.onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const message = parseSseBlock(buffer.slice(0, boundary));
      buffer = buffer.slice(boundary + 2);
      if (message) options.onMessage(message);
      boundary = buffer.indexOf('\n\n');
    }
  }
}

/** Keeps a stream open: reconnects after a drop with a growing pause, until the signal aborts. */
export async function followEventStream(path: () => string, options: StreamOptions & { onDrop?: () => void }): Promise<void> {
  let pause = 500;
  while (!options.signal.aborted) {
    try {
      await readEventStream(path(), {
        ...options,
        onOpen: () => {
          pause = 500;
          options.onOpen?.();
        },
      });
    } catch {
      if (options.signal.aborted) return;
    }
    if (options.signal.aborted) return;
    options.onDrop?.();
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 10_000);
  }
}
