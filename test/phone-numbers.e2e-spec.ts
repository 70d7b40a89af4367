import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, pairedInstance, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const PREFIX = '1555049';

/** Numbers as people paste them, and the number each stands for. */
const PASTED: [string, string][] = [
  ['+44 7700 900123', '447700900123'],
  ['+1 (415) 555-0123', '14155550123'],
  ['(415) 555-0123', '4155550123'],
  ['0044 7700 900123', '447700900123'],
  ['1.415.555.0123', '14155550123'],
];

/** Numbers that are refused, and what the refusal says is wrong. */
const REFUSED: [string, string][] = [
  ['+44 7700 abc 900123', "remove the letters 'abc'"],
  ['07700 900123', 'a leading 0 means a national number; write the country code instead (+44 7700 900123)'],
  ['+44 123', 'too short: 5 digits, an international number has 7 to 15'],
  ['+44 7700 900123 900123', 'too long: 18 digits, an international number has 7 to 15'],
  ['+44 7700 900123#', "remove the characters '#'"],
];

describe('phone numbers as people paste them', () => {
  let http: Http;
  let world: InstanceWorld;
  let instance: CreatedInstance;
  useInstanceWorld(PREFIX, (suite) => ({ http, world } = suite));

  beforeAll(async () => {
    instance = await pairedInstance(http, world.customer, `${PREFIX}0101`);
  });

  it('sends to a pasted number, to the number it stands for', async () => {
    for (const [to] of PASTED) {
      const sent = await http.post('/messages/text', { to, text: `to ${to}` }, headersOf(instance));
      expect({ to, status: sent.status }).toEqual({ to, status: 201 });
    }
    const outbox = async () =>
      ((await http.get('/sandbox/outbox', headersOf(instance))).body as { to: string; content: { text: string } }[]).map((entry) => [
        entry.content.text,
        entry.to,
      ]);
    let delivered = await outbox();
    for (let waited = 0; delivered.length < PASTED.length && waited < 10_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      delivered = await outbox();
    }
    expect(delivered.sort()).toEqual(PASTED.map(([to, digits]) => [`to ${to}`, `${digits}@s.whatsapp.net`]).sort());
  });

  it('checks pasted numbers, one in the path or many in a body, naming each as the caller wrote it', async () => {
    const one = await http.get(`/users/${encodeURIComponent('+44 7700 900123')}/check`, headersOf(instance));
    expect(one.status).toBe(200);
    const many = await http.post('/users/check', { phones: PASTED.map(([pasted]) => pasted) }, headersOf(instance));
    expect(many.status).toBe(200);
    expect((many.body as { query: string }[]).map((result) => result.query)).toEqual(PASTED.map(([pasted]) => pasted));
  });

  it('takes pasted numbers as group participants and contacts', async () => {
    const group = await http.post(
      '/groups',
      { name: 'Pasted', participants: ['+44 7700 900123', '+1 (415) 555-0123'] },
      headersOf(instance),
    );
    expect(group.status).toBe(201);
    const saved = await http.post('/contacts', { id: '+44 7700 900123', fullName: 'Ann Example' }, headersOf(instance));
    expect(saved.status).toBe(204);
  });

  it('says exactly what is wrong with a refused number, wherever it is taken, and sends nothing', async () => {
    const before = ((await http.get('/sandbox/outbox', headersOf(instance))).body as unknown[]).length;
    for (const [number, problem] of REFUSED) {
      expectErrorBody(
        await http.post('/messages/text', { to: number, text: 'x' }, headersOf(instance)),
        400,
        `validation error: to: ${problem}`,
      );
      expectErrorBody(
        await http.post('/users/check', { phones: ['447700900123', number] }, headersOf(instance)),
        400,
        `validation error: phones[1]: ${problem}`,
      );
      expectErrorBody(
        await http.get(`/users/${encodeURIComponent(number)}/check`, headersOf(instance)),
        400,
        `validation error: phone: ${problem}`,
      );
      expectErrorBody(
        await http.post('/groups', { name: 'Refused', participants: ['447700900123', number] }, headersOf(instance)),
        400,
        `validation error: participants[1]: ${problem}`,
      );
    }
    expect(((await http.get('/sandbox/outbox', headersOf(instance))).body as unknown[]).length).toBe(before);
  });
});
