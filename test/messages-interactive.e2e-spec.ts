import { Client } from 'pg';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

type OutboxEntry = { id: string; to: string; type: string; content: Record<string, unknown> };
type InboxEntry = { id: string; from: string; chatId: string; type: string; content: Record<string, unknown> };

describe('interactive messages and message operations', () => {
  let http: Http;
  let world: InstanceWorld;
  let db: Client;
  useInstanceWorld('1555041', (suite) => ({ http, world } = suite));

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
  });

  const headers = () => headersOf(world.connected);
  const self = () => world.self(world.connected);
  const outbox = async () => (await http.get('/sandbox/outbox', headers())).body as OutboxEntry[];
  const inbox = async () => (await http.get('/sandbox/inbox', headers())).body as InboxEntry[];
  const delivered = (id: string) => eventually(outbox, (entries) => entries.some((entry) => entry.id === id));
  const entry = async (id: string) => (await outbox()).find((candidate) => candidate.id === id);
  /** The delivery status the network keeps for a message (a read receipt shows only here). */
  const networkStatus = async (id: string) =>
    (await db.query<{ status: string }>('SELECT status FROM sandbox_messages WHERE instance_id = $1 AND id = $2', [world.connected.id, id]))
      .rows[0]?.status;

  const buttons = {
    to: '447700900123',
    text: 'Confirm your order?',
    footer: 'Reply below',
    buttons: [
      { id: 'yes', text: 'Yes' },
      { type: 'url', text: 'Track', url: 'https://example.com/t/1' },
      { type: 'reply', id: 'no', text: 'No' },
    ],
  };

  it('sends buttons as rendered, and a tap on a reply button arrives as a button_reply with replyTo.id, once per tap', async () => {
    const sent = await http.post('/messages/buttons', buttons, headers());
    expect(sent.status).toBe(201);
    const { id } = sent.body as { id: string };
    await delivered(id);
    expect(await entry(id)).toEqual({
      id,
      to: '447700900123@s.whatsapp.net',
      type: 'buttons',
      content: {
        text: 'Confirm your order?',
        footer: 'Reply below',
        aiLabel: false,
        buttons: [
          { type: 'reply', id: 'yes', text: 'Yes' },
          { type: 'url', text: 'Track', url: 'https://example.com/t/1' },
          { type: 'reply', id: 'no', text: 'No' },
        ],
      },
      receivedAt: expect.any(String),
    });

    for (let tap = 0; tap < 2; tap += 1) {
      expect(
        (await http.post('/sandbox/inbound', { from: '447700900123', type: 'button_reply', replyTo: id, buttonId: 'no' }, headers()))
          .status,
      ).toBe(201);
    }
    expectErrorBody(
      await http.post('/sandbox/inbound', { from: '447700900123', type: 'button_reply', replyTo: id, buttonId: 'Track' }, headers()),
      400,
      `validation error: buttonId Track is not a reply button of message ${id}`,
    );
    const taps = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.filter((event) => event.eventType === 'message' && event.data.type === 'button_reply').length === 2,
    );
    const replies = taps.filter((event) => event.eventType === 'message' && event.data.type === 'button_reply');
    expect(replies.map((event) => [event.data.buttonReply, event.data.replyTo, event.data.text])).toEqual([
      [{ id: 'no', text: 'No' }, { id }, 'No'],
      [{ id: 'no', text: 'No' }, { id }, 'No'],
    ]);
    expect(replies[0].data.id).not.toBe(replies[1].data.id);
  });

  it('sends a list, and a row choice arrives as a list_reply (description only when the row had one)', async () => {
    const list = {
      to: '447700900123',
      text: 'Pick a slot',
      buttonText: 'Slots',
      sections: [
        { title: 'Morning', rows: [{ id: 'm9', title: '9:00', description: 'Early' }] },
        { title: 'Evening', rows: [{ id: 'e6', title: '18:00' }] },
      ],
    };
    const sent = await http.post('/messages/list', list, headers());
    expect(sent.status).toBe(201);
    const { id } = sent.body as { id: string };
    await delivered(id);
    expect((await entry(id))?.content).toEqual({ text: 'Pick a slot', buttonText: 'Slots', aiLabel: false, sections: list.sections });
    await http.post('/sandbox/inbound', { from: '447700900123', type: 'list_reply', replyTo: id, rowId: 'e6' }, headers());
    await http.post('/sandbox/inbound', { from: '447700900123', type: 'list_reply', replyTo: id, rowId: 'm9' }, headers());
    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.filter((event) => event.data.type === 'list_reply').length === 2,
    );
    expect(
      log.filter((event) => event.data.type === 'list_reply').map((event) => [event.data.listReply, event.data.replyTo, event.data.text]),
    ).toEqual([
      [{ id: 'e6', title: '18:00' }, { id }, '18:00'],
      [{ id: 'm9', title: '9:00', description: 'Early' }, { id }, '9:00'],
    ]);
  });

  it('rejects buttons and lists that break the contract, sending nothing', async () => {
    const before = (await outbox()).length;
    expectErrorBody(
      await http.post('/messages/buttons', { ...buttons, replyTo: 'x' }, headers()),
      400,
      'validation error: property replyTo should not exist',
    );
    expectErrorBody(
      await http.post('/messages/buttons', { ...buttons, buttons: [...buttons.buttons, { id: 'four', text: 'Four' }] }, headers()),
      400,
      /^validation error: buttons must /,
    );
    expectErrorBody(
      await http.post(
        '/messages/buttons',
        {
          ...buttons,
          buttons: [
            { id: 'yes', text: 'A' },
            { id: 'yes', text: 'B' },
          ],
        },
        headers(),
      ),
      400,
      /^validation error: buttons\[1\]\.id .*"yes"/,
    );
    const list = { to: '447700900123', text: 'Pick a slot', buttonText: 'Slots' };
    const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `r${index}`, title: `Row ${index}` }));
    expectErrorBody(
      await http.post('/messages/list', { ...list, sections: [{ rows: rows(11) }] }, headers()),
      400,
      'validation error: sections must have at most 10 rows in total',
    );
    expectErrorBody(
      await http.post('/messages/list', { ...list, sections: [{ rows: [...rows(1), ...rows(1)] }] }, headers()),
      400,
      'validation error: sections[0].rows[1].id duplicates "r0"',
    );
    expectErrorBody(
      await http.post(
        '/messages/list',
        { ...list, sections: [{ rows: rows(1) }, { title: 'Evening', rows: [{ id: 'e6', title: '18:00' }] }] },
        headers(),
      ),
      400,
      'validation error: sections[0].title is required when there is more than one section',
    );
    expect((await outbox()).length).toBe(before);
  });

  it('answers buttons and lists on an unpaired instance with 409 device not paired', async () => {
    const unpairedHeaders = headersOf(world.unpaired);
    expectErrorBody(await http.post('/messages/buttons', buttons, unpairedHeaders), 409, 'device not paired');
    expectErrorBody(
      await http.post(
        '/messages/list',
        { to: '447700900123', text: 't', buttonText: 'b', sections: [{ rows: [{ id: 'r', title: 't' }] }] },
        unpairedHeaders,
      ),
      409,
      'device not paired',
    );
    expectErrorBody(await http.post('/messages/text', { to: '447700900123', message: 'x' }, unpairedHeaders), 403, 'device not paired');
  });

  it('edits, reacts to and deletes its own message, as the recipient sees it', async () => {
    const sent = await http.post('/messages/text', { to: '447700900123', message: 'typo' }, headers());
    const { id } = sent.body as { id: string };
    await delivered(id);

    const edited = await http.post(`/messages/${id}/edit`, { to: '447700900123', text: 'fixed' }, headers());
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ id: expect.stringMatching(/^3EB0/) });
    await eventually(
      () => entry(id),
      (message) => message?.content.text === 'fixed',
    );

    expect((await http.post(`/messages/${id}/reaction`, { to: '447700900123', reaction: '👍' }, headers())).status).toBe(200);
    await eventually(
      () => entry(id),
      (message) => Boolean(message?.content.reactions),
    );
    expect((await entry(id))?.content.reactions).toEqual({ [self()]: '👍' });
    expect((await http.post(`/messages/${id}/reaction`, { to: '447700900123', reaction: '' }, headers())).status).toBe(200);
    await eventually(
      () => entry(id),
      (message) => JSON.stringify(message?.content.reactions) === '{}',
    );

    const deleted = await http.post(`/messages/${id}/delete`, { chatId: '447700900123', senderId: self().split('@')[0] }, headers());
    expect(deleted.status).toBe(204);
    await eventually(
      () => entry(id),
      (message) => message?.content.deleted === true,
    );
    expect((await entry(id))?.content).toEqual({ text: 'fixed', edited: true, reactions: {}, deleted: true });
  });

  it('refuses to edit or delete messages it did not send, with 403 forbidden', async () => {
    const inbound = await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text: 'theirs' }, headers());
    const theirs = (inbound.body as { id: string }).id;
    await eventually(
      () => eventLog(world.connected.id),
      (events) => events.some((event) => event.eventType === 'message' && event.data.id === theirs),
    );
    expectErrorBody(
      await http.post(`/messages/${theirs}/edit`, { to: '447700900123', text: 'mine now' }, headers()),
      403,
      'forbidden: only messages this instance sent can be edited',
    );
    expectErrorBody(
      await http.post(`/messages/${theirs}/delete`, { chatId: '447700900123', senderId: '447700900123' }, headers()),
      403,
      'forbidden: only messages this instance sent can be deleted for everyone',
    );
    const buttonsId = ((await http.post('/messages/buttons', buttons, headers())).body as { id: string }).id;
    expectErrorBody(
      await http.post(`/messages/${buttonsId}/edit`, { to: '447700900123', text: 'x' }, headers()),
      403,
      'forbidden: a buttons message cannot be edited, only text and link messages',
    );
    // Reacting to someone else's message is allowed, as on a phone.
    expect((await http.post(`/messages/${theirs}/reaction`, { to: '447700900123', reaction: '❤️' }, headers())).status).toBe(200);
  });

  it('sends contacts, locations and links', async () => {
    const contact = await http.post(
      '/messages/contact',
      { to: '447700900123', displayName: 'Ann', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD' },
      headers(),
    );
    const location = await http.post(
      '/messages/location',
      { to: '447700900123', latitude: 51.5, longitude: -0.12, name: 'London' },
      headers(),
    );
    const link = await http.post(
      '/messages/link',
      { to: '447700900123', text: 'See https://example.com', url: 'https://example.com' },
      headers(),
    );
    for (const response of [contact, location, link]) expect(response.status).toBe(201);
    const id = (link.body as { id: string }).id;
    await delivered(id);
    const types = (await outbox()).slice(-3).map((message) => [message.type, message.content]);
    expect(types).toEqual([
      ['contact', { displayName: 'Ann', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD' }],
      ['location', { latitude: 51.5, longitude: -0.12, name: 'London' }],
      ['link', { text: 'See https://example.com', url: 'https://example.com' }],
    ]);
  });

  it('marks received messages read, stars, pins and deletes for me, each as the network shows it', async () => {
    const inbound = await http.post('/sandbox/inbound', { from: '447700900124', type: 'text', text: 'read me' }, headers());
    const theirs = (inbound.body as { id: string }).id;
    const chat = { chatId: '447700900124', senderId: '447700900124' };
    expect((await http.post(`/messages/${theirs}/read`, { ...chat, receiptType: 'read' }, headers())).status).toBe(204);
    expect((await http.post(`/messages/${theirs}/star`, chat, headers())).status).toBe(204);
    expect((await http.post(`/messages/${theirs}/pin`, { ...chat, pinExpiration: '24h' }, headers())).status).toBe(204);

    const mine = ((await http.post('/messages/text', { to: '447700900124', message: 'hide me' }, headers())).body as { id: string }).id;
    await delivered(mine);
    expect((await http.post(`/messages/${mine}/delete-for-me`, { chatId: '447700900124', isFromMe: true }, headers())).status).toBe(204);
    await eventually(
      () => entry(mine),
      (message) => message?.content.deletedForMe === true,
    );
    // Only this instance's view changed: the message is not deleted for the recipient.
    expect((await entry(mine))?.content).toEqual({ text: 'hide me', deletedForMe: true });
    // An instance's operations reach the network in the order they were accepted, so the read, star and pin of the
    // received message were carried out before the delete-for-me that came after them.
    expect((await inbox()).find((message) => message.id === theirs)).toEqual({
      id: theirs,
      from: '447700900124@s.whatsapp.net',
      chatId: '447700900124@s.whatsapp.net',
      type: 'text',
      content: { text: 'read me', starred: true, pinned: { by: self(), seconds: 86_400 } },
      receivedAt: expect.any(String),
    });
    expect(await networkStatus(theirs)).toBe('read');

    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) =>
        events.filter((event) => event.eventType === 'message_status' && event.data.status === 'sent').length >= 1 &&
        events.some((e) => e.data.id === mine),
    );
    expect(
      log.some(
        (event) =>
          event.eventType === 'message_status' && event.data.status === 'failed' && event.data.chatId === '447700900124@s.whatsapp.net',
      ),
    ).toBe(false);
  });

  it('reports an operation on a message the network does not know as a failed send', async () => {
    const response = await http.post(
      '/messages/3EB0FFFFFFFFFFFFFFFFFF/star',
      { chatId: '447700900123', senderId: '447700900123' },
      headers(),
    );
    expect(response.status).toBe(204);
    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.some((event) => event.eventType === 'message_status' && event.data.status === 'failed'),
    );
    expect(log.find((event) => event.eventType === 'message_status' && event.data.status === 'failed')?.data).toEqual({
      id: expect.stringMatching(/^3EB0/),
      chatId: '447700900123@s.whatsapp.net',
      status: 'failed',
      error: 'message 3EB0FFFFFFFFFFFFFFFFFF is unknown to the network in 447700900123@s.whatsapp.net',
    });
  });
});
