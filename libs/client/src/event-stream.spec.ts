import { EventDecodeError } from './envelope.js';
import { GatewayError } from './errors.js';
import { EventStream, type StreamMessage, type StreamTransport } from './event-stream.js';

const envelope = (text: string) => ({
  eventId: `evt_${text}`,
  instanceId: 'ins_1',
  eventType: 'message',
  receivedAt: '2026-01-01T00:00:00.000Z',
  eventData: { text },
});
const frame = (seq: number, text: string) => `id: ${seq}\ndata: ${JSON.stringify(envelope(text))}\n\n`;

/** A transport whose answers are scripted, one per request, recording the Last-Event-ID each request carried. */
function scripted(answers: (() => Response)[]): { transport: StreamTransport; resumedFrom: (string | null)[] } {
  const resumedFrom: (string | null)[] = [];
  const transport: StreamTransport = {
    fetch: (request) => {
      resumedFrom.push(request.headers.get('Last-Event-ID'));
      const answer = answers.shift();
      return Promise.resolve(answer ? answer() : new Response(new ReadableStream({ start: () => undefined }), { status: 200 }));
    },
    url: (path) => `http://gateway.test${path}`,
    headers: () => new Headers({ 'X-Api-Key': 'k', 'X-Instance-Id': 'i' }),
    latestSeq: () => Promise.resolve(7),
  };
  return { transport, resumedFrom };
}

const stream = (text: string) => () => new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

async function take(events: EventStream, count: number): Promise<StreamMessage[]> {
  const taken: StreamMessage[] = [];
  for await (const message of events) {
    taken.push(message);
    if (taken.length === count) break;
  }
  return taken;
}

describe('EventStream', () => {
  it('starts after the newest event when given no position, and resumes after the last message on each reconnect', async () => {
    const { transport, resumedFrom } = scripted([
      stream(frame(8, 'a') + frame(9, 'b')),
      stream(': keep-alive\n\n'),
      stream(frame(10, 'c')),
    ]);
    const taken = await take(new EventStream(transport, { reconnectDelayMs: 1 }), 3);
    expect(taken).toEqual([
      { kind: 'event', seq: 8, event: envelope('a') },
      { kind: 'event', seq: 9, event: envelope('b') },
      { kind: 'event', seq: 10, event: envelope('c') },
    ]);
    expect(resumedFrom).toEqual(['7', '9', '9']);
  });

  it('hands out a gap as such and continues after it', async () => {
    const { transport } = scripted([stream(`id: 41\nevent: gap\ndata: {"firstMissing":4,"oldestKept":42}\n\n${frame(42, 'kept')}`)]);
    expect(await take(new EventStream(transport, { lastEventId: 3 }), 2)).toEqual([
      { kind: 'gap', seq: 41, firstMissing: 4, oldestKept: 42 },
      { kind: 'event', seq: 42, event: envelope('kept') },
    ]);
  });

  it('stops with an EventDecodeError at an event that is not an envelope, after handing out the ones before it', async () => {
    const broken = `id: 43\ndata: ${JSON.stringify({ ...envelope('x'), eventId: 7 })}\n\n`;
    const { transport } = scripted([stream(frame(42, 'kept') + broken)]);
    const taken: StreamMessage[] = [];
    const reading = (async () => {
      for await (const message of new EventStream(transport, { lastEventId: 41 })) taken.push(message);
    })();
    await expect(reading).rejects.toThrow(new EventDecodeError('event 43: eventId: expected a non-empty string'));
    expect(taken).toEqual([{ kind: 'event', seq: 42, event: envelope('kept') }]);
  });

  it('waits out a 503 or 429 and tries again from the same position', async () => {
    const busy = (status: number) => () =>
      Response.json({ status, detail: 'instance not available' }, { status, headers: { 'Retry-After': '0' } });
    const { transport, resumedFrom } = scripted([busy(503), busy(429), stream(frame(6, 'after'))]);
    expect(await take(new EventStream(transport, { after: 5, reconnectDelayMs: 1 }), 1)).toEqual([
      { kind: 'event', seq: 6, event: envelope('after') },
    ]);
    expect(resumedFrom).toEqual(['5', '5', '5']);
  });

  it('ends with the GatewayError of a refusal retrying cannot fix', async () => {
    const { transport } = scripted([() => Response.json({ status: 401, detail: 'unauthorized' }, { status: 401 })]);
    const failure = await take(new EventStream(transport, { lastEventId: 1 }), 1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as GatewayError).toJSON()).toEqual({ status: 401, detail: 'unauthorized' });
  });

  it('ends quietly when its signal is aborted while waiting for events', async () => {
    const { transport } = scripted([]);
    const stop = new AbortController();
    const reading = take(new EventStream(transport, { lastEventId: 1, signal: stop.signal }), 1);
    setTimeout(() => stop.abort(), 20);
    await expect(reading).resolves.toEqual([]);
  });
});
