import { ServerAcks } from './server-acks';

const CHAT = '447700900123@s.whatsapp.net';

describe('ServerAcks', () => {
  afterEach(() => jest.useRealTimers());

  it('answers the refusal code of an error ack, also when the ack came before the send asked', async () => {
    const acks = new ServerAcks(1_000);
    acks.expect('A', CHAT);
    acks.received({ id: 'A', error: '463' });
    expect(acks.reportedBySend('A')).toBe(true);
    await expect(acks.outcome('A')).resolves.toEqual({ outcome: 'refused', code: 463 });
  });

  it('answers taken for an ack without error, and for a send that awaited no stanza (an operation)', async () => {
    const acks = new ServerAcks(1_000);
    acks.expect('taken', CHAT);
    acks.received({ id: 'taken' });
    await expect(acks.outcome('taken')).resolves.toEqual({ outcome: 'taken' });
    await expect(acks.outcome('no-stanza')).resolves.toEqual({ outcome: 'taken' });
    expect(acks.reportedBySend('taken')).toBe(false);
  });

  it('answers unconfirmed, not taken, when no ack comes within the wait', async () => {
    jest.useFakeTimers();
    const acks = new ServerAcks(1_000);
    acks.expect('silent', CHAT);
    const silent = acks.outcome('silent');
    jest.advanceTimersByTime(999);
    expect(acks.knows('silent')).toBe(true);
    jest.advanceTimersByTime(1);
    await expect(silent).resolves.toEqual({ outcome: 'unconfirmed', why: 'timeout' });
    expect(acks.reportedBySend('silent')).toBe(false);
  });

  it('answers unconfirmed, not taken, when the socket closes before the ack (also for an outcome asked afterwards)', async () => {
    const acks = new ServerAcks(1_000);
    acks.expect('cut', CHAT);
    acks.expect('cut-unasked', CHAT);
    const cut = acks.outcome('cut');
    acks.socketClosed();
    await expect(cut).resolves.toEqual({ outcome: 'unconfirmed', why: 'closed' });
    await expect(acks.outcome('cut-unasked')).resolves.toEqual({ outcome: 'unconfirmed', why: 'closed' });
  });

  it('hands an ack that comes after the wait to lateAck with its chat, once; a late refusal stays Baileys’ to report', async () => {
    jest.useFakeTimers();
    const late: [string, string][] = [];
    const acks = new ServerAcks(1_000, (id, chatJid) => late.push([id, chatJid]));
    acks.expect('slow', CHAT);
    acks.expect('slow-refused', CHAT);
    const slow = acks.outcome('slow');
    jest.advanceTimersByTime(1_000);
    await expect(slow).resolves.toEqual({ outcome: 'unconfirmed', why: 'timeout' });
    acks.received({ id: 'slow' });
    acks.received({ id: 'slow' });
    acks.received({ id: 'slow-refused', error: '479' });
    expect(late).toEqual([['slow', CHAT]]);
    expect(acks.reportedBySend('slow-refused')).toBe(false);
  });

  it('leaves acks of stanzas nobody waits for to Baileys: no late confirmation, not reported by a send', () => {
    const late: string[] = [];
    const acks = new ServerAcks(1_000, (id) => late.push(id));
    acks.received({ id: 'B', error: '479' });
    acks.received({ id: 'C' });
    expect(late).toEqual([]);
    expect(acks.reportedBySend('B')).toBe(false);
    expect(acks.knows('C')).toBe(false);
  });
});
