import { eventLog, eventually } from './support/event-log';
import type { Customer } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, pairedInstance } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const MESSAGE_ID = /^3EB0[0-9A-F]{18}$/;
const ANN = '447700900111@s.whatsapp.net';
const BOB = '447700900222@s.whatsapp.net';

describe('POST /sandbox/inbound/batch', () => {
  let http: Http;
  let customer: Customer;
  useInstanceWorld(
    '1555046',
    (suite) =>
      ({
        http,
        world: { customer },
      } = suite),
  );

  const messageEvents = async (instanceId: string) =>
    (await eventLog(instanceId)).filter((event) => event.eventType === 'message' || event.eventType === 'chat_push_name');

  it('delivers every message in the order given, as one by one would, and answers their ids in that order', async () => {
    const instance = await pairedInstance(http, customer, '15550003001');
    const response = await http.post(
      '/sandbox/inbound/batch',
      {
        messages: [
          { from: '447700900111', type: 'text', text: 'first' },
          { from: '447700900222', type: 'text', text: 'second', pushName: 'Bob' },
          { from: '447700900111', type: 'contact', vcards: ['BEGIN:VCARD\nFN:Cy\nEND:VCARD'] },
          { from: '447700900222', type: 'text', text: 'fourth', pushName: 'Bob' },
        ],
      },
      headersOf(instance),
    );
    expect(response.status).toBe(201);
    const { ids } = response.body as { ids: string[] };
    expect(ids).toEqual([
      expect.stringMatching(MESSAGE_ID),
      expect.stringMatching(MESSAGE_ID),
      expect.stringMatching(MESSAGE_ID),
      expect.stringMatching(MESSAGE_ID),
    ]);
    expect(new Set(ids).size).toBe(4);
    const events = await eventually(
      () => messageEvents(instance.id),
      (all) => all.length === 5,
    );
    // Bob's push name is announced once, before his first message; sequence numbers follow the order given.
    expect(events.map((event) => [event.eventType, event.data.id ?? null, event.data.text ?? null])).toEqual([
      ['message', ids[0], 'first'],
      ['chat_push_name', null, null],
      ['message', ids[1], 'second'],
      ['message', ids[2], null],
      ['message', ids[3], 'fourth'],
    ]);
    expect(events[1].data).toEqual({ user: { id: BOB, phone: '447700900222' }, pushName: 'Bob' });
    const seqs = events.map((event) => Number(event.seq));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const inbox = (await http.get('/sandbox/inbox', headersOf(instance))).body as { id: string; from: string; type: string }[];
    expect(inbox.map((entry) => [entry.id, entry.from, entry.type])).toEqual([
      [ids[0], ANN, 'text'],
      [ids[1], BOB, 'text'],
      [ids[2], ANN, 'contact'],
      [ids[3], BOB, 'text'],
    ]);
  });

  it('refuses the whole batch when one message is refused, naming it, and delivers none', async () => {
    const instance = await pairedInstance(http, customer, '15550003002');
    const before = await eventLog(instance.id);
    const cases: { messages: unknown[]; detail: string | RegExp }[] = [
      {
        messages: [
          { from: '447700900111', type: 'text', text: 'fine' },
          { from: 'not a number', type: 'text', text: 'bad sender' },
        ],
        detail: 'validation error: messages[1]: from must be a user JID or an international number',
      },
      {
        messages: [
          { from: '447700900111', type: 'text', text: 'fine' },
          { from: '447700900111', type: 'text' },
        ],
        detail: 'validation error: messages[1]: text is required for a text message',
      },
      {
        messages: [{ from: '447700900111', type: 'button_reply', replyTo: '3EB0000000000000000000', buttonId: 'x' }],
        detail: 'validation error: messages[0]: replyTo 3EB0000000000000000000 is not a message this instance sent',
      },
      {
        messages: [{ from: '447700900111', type: 'sticker', text: 'x' }],
        detail: /^validation error: messages\[0\]\.type must be one of /,
      },
      { messages: [], detail: 'validation error: messages must have at least 1 item' },
      {
        messages: Array.from({ length: 1001 }, (_, index) => ({ from: '447700900111', type: 'text', text: `m ${index}` })),
        detail: 'validation error: messages must have at most 1000 items',
      },
    ];
    for (const { messages, detail } of cases) {
      const response = await http.post('/sandbox/inbound/batch', { messages }, headersOf(instance));
      expectErrorBody(response, 400, detail);
    }
    expectErrorBody(await http.post('/sandbox/inbound/batch', {}, headersOf(instance)), 400, 'validation error: messages is required');
    expect(await eventLog(instance.id)).toEqual(before);
    expect((await http.get('/sandbox/inbox', headersOf(instance))).body).toEqual([]);
  });

  it('takes a thousand messages in one request', async () => {
    const instance = await pairedInstance(http, customer, '15550003003');
    const messages = Array.from({ length: 1000 }, (_, index) => ({ from: '447700900111', type: 'text', text: `bulk ${index}` }));
    const response = await http.post('/sandbox/inbound/batch', { messages }, headersOf(instance));
    expect(response.status).toBe(201);
    const { ids } = response.body as { ids: string[] };
    expect(ids).toHaveLength(1000);
    const events = await eventually(
      () => messageEvents(instance.id),
      (all) => all.length === 1000,
      30_000,
    );
    expect(events.map((event) => event.data.text)).toEqual(messages.map((message) => message.text));
    expect(events.map((event) => event.data.id)).toEqual(ids);
  });
});
