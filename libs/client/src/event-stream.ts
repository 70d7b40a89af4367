import { backoffDelay, sleep } from './backoff.js';
import { GatewayError, retryAfterSeconds } from './errors.js';
import { EventDecodeError, parseEventEnvelope } from './envelope.js';
import type { EventEnvelopeDto } from './generated/openapi.js';
import { SseParser, type SseMessage } from './sse-parser.js';

/** An event of the instance's log, as the stream delivers it. */
export interface StreamedEvent {
  kind: 'event';
  /** Its sequence number in the instance's log: resume after it with `lastEventId`. */
  seq: number;
  event: EventEnvelopeDto;
}

/**
 * Events were pruned (past the retention time) before this client read them: those from `firstMissing` to
 * `oldestKept - 1` are lost; the stream continues with `oldestKept`.
 */
export interface StreamGap {
  kind: 'gap';
  seq: number;
  firstMissing: number;
  oldestKept: number;
}

export type StreamMessage = StreamedEvent | StreamGap;

export interface EventStreamOptions {
  /**
   * Resume after this sequence number (the `seq` of the last event you processed). Wins over `after`. Without either,
   * the stream starts with the next new event.
   */
  lastEventId?: number;
  /** Start after this sequence number: `0` replays everything still kept. */
  after?: number;
  /** Ends the stream: the iterator finishes (no error) and the connection closes. */
  signal?: AbortSignal;
  /** First reconnection delay; doubles on each failure in a row up to `maxReconnectDelayMs`. Default 500 ms. */
  reconnectDelayMs?: number;
  /** Default 30 s. */
  maxReconnectDelayMs?: number;
  /**
   * A connection that brings nothing (not even the 15-second keep-alive) for this long is taken as dead and replaced.
   * Default 45 s.
   */
  idleTimeoutMs?: number;
}

/** What the stream needs from its client. */
export interface StreamTransport {
  fetch: (request: Request) => Promise<Response>;
  url: (path: string) => string;
  headers: () => Headers;
  /** The newest sequence number in the log (0 when it is empty): where "the next new event" starts. */
  latestSeq: (signal: AbortSignal) => Promise<number>;
}

/** Answers worth trying again later; any other refusal (401, 403, 404, 400...) ends the stream with a GatewayError. */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * `GET /events/stream` as an async iterator that survives disconnects: it reconnects with backoff and resumes with
 * `Last-Event-ID` after the last message it handed out, so the caller sees every event once, in order, with a gap
 * message when the log no longer has what was missed. `lastEventId` is the position to persist for a later resume.
 */
export class EventStream implements AsyncIterable<StreamMessage> {
  private position: number | undefined;
  private readonly controller = new AbortController();
  private started = false;

  constructor(
    private readonly transport: StreamTransport,
    private readonly options: EventStreamOptions = {},
  ) {
    this.position = options.lastEventId ?? options.after;
    options.signal?.addEventListener('abort', () => this.controller.abort(options.signal?.reason), { once: true });
    if (options.signal?.aborted) this.controller.abort(options.signal.reason);
  }

  /** The sequence number of the last message handed out (or the starting point): resume after it. */
  get lastEventId(): number | undefined {
    return this.position;
  }

  /** Stops the stream; a `for await` over it ends. */
  close(): void {
    this.controller.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamMessage> {
    if (this.started) throw new Error('an EventStream can be iterated once; open another with client.events()');
    this.started = true;
    return this.messages();
  }

  private async *messages(): AsyncGenerator<StreamMessage> {
    const signal = this.controller.signal;
    const initial = this.options.reconnectDelayMs ?? 500;
    const max = this.options.maxReconnectDelayMs ?? 30_000;
    let failures = 0;
    let serverDelay: number | undefined;
    try {
      if (this.position === undefined) this.position = await this.transport.latestSeq(signal);
      while (!signal.aborted) {
        const attempt = await this.connect(signal);
        if (attempt.response) {
          let received = false;
          for await (const message of this.read(attempt.response, signal)) {
            if (message.retry !== undefined) serverDelay = message.retry;
            const item = toStreamMessage(message);
            if (!item) continue;
            received = true;
            this.position = item.seq;
            yield item;
          }
          // The stream ended (server shutdown, proxy timeout, broken link): reconnect, quickly if it had been working.
          failures = received ? 1 : failures + 1;
        } else {
          failures += 1;
          if (attempt.retryAfterMs !== undefined) serverDelay = attempt.retryAfterMs;
        }
        await sleep(Math.max(serverDelay ?? 0, backoffDelay(failures, initial, max)), signal);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.controller.abort();
    }
  }

  /** The open stream, or how long to wait before the next try; a refusal that retrying cannot fix throws. */
  private async connect(signal: AbortSignal): Promise<{ response?: Response; retryAfterMs?: number }> {
    const headers = this.transport.headers();
    headers.set('Accept', 'text/event-stream');
    headers.set('Last-Event-ID', String(this.position));
    let response: Response;
    try {
      response = await this.transport.fetch(new Request(this.transport.url('/events/stream'), { headers, signal }));
    } catch (error) {
      if (signal.aborted) throw error;
      return {};
    }
    if (response.ok && response.body) return { response };
    const error = await GatewayError.fromResponse(response);
    if (!RETRYABLE.has(response.status)) throw error;
    const retryAfter = retryAfterSeconds(response);
    return { retryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000 };
  }

  /** The messages of one connection, until it ends, breaks or stays silent past the idle timeout. */
  private async *read(response: Response, signal: AbortSignal): AsyncGenerator<SseMessage> {
    const body = response.body;
    if (!body) return;
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const cancel = () => void reader.cancel().catch(() => undefined);
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(cancel, idleMs);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      armIdle();
      for (;;) {
        const chunk = await reader.read().catch(() => undefined); // a broken connection: the caller reconnects
        if (!chunk || chunk.done) return;
        const messages = parser.push(decoder.decode(chunk.value, { stream: true }));
        // The caller may take its time over a message: that is not the connection going quiet.
        if (messages.length > 0) clearTimeout(idle);
        yield* messages;
        armIdle();
      }
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', cancel);
      cancel();
    }
  }
}

function toStreamMessage(message: SseMessage): StreamMessage | undefined {
  const seq = message.id === undefined ? NaN : Number(message.id);
  if (!Number.isSafeInteger(seq)) return undefined;
  if (message.event === 'gap') {
    return { kind: 'gap', seq, ...decodeGap(seq, message.data) };
  }
  if (message.event !== 'message') return undefined;
  try {
    return { kind: 'event', seq, event: parseEventEnvelope(message.data) };
  } catch (error) {
    // The stream stops at the event rather than skip it silently; `lastEventId: seq` resumes past it.
    if (error instanceof EventDecodeError) throw new EventDecodeError(`event ${seq}: ${error.message}`);
    throw error;
  }
}

/** A gap notice's two numbers, checked: a gap read wrong would hide lost events. */
function decodeGap(seq: number, data: string): { firstMissing: number; oldestKept: number } {
  let gap: { firstMissing?: unknown; oldestKept?: unknown } | null;
  try {
    gap = JSON.parse(data) as typeof gap;
  } catch {
    throw new EventDecodeError(`gap ${seq}: not JSON`);
  }
  const { firstMissing, oldestKept } = gap ?? {};
  if (!Number.isSafeInteger(firstMissing) || !Number.isSafeInteger(oldestKept)) {
    throw new EventDecodeError(`gap ${seq}: firstMissing and oldestKept must be integers`);
  }
  return { firstMissing: firstMissing as number, oldestKept: oldestKept as number };
}
