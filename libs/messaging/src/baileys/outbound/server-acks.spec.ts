import { ServerAcks } from './server-acks';

describe('ServerAcks', () => {
  it('answers the refusal code of an error ack, also when the ack came before the send asked', async () => {
    const acks = new ServerAcks(1_000);
    acks.expect('A');
    acks.received({ id: 'A', error: '463' });
    expect(acks.reportedBySend('A')).toBe(true);
    await expect(acks.outcome('A')).resolves.toBe(463);
  });

  it('answers undefined for an ack without error, for no ack within the wait, and when the socket closes', async () => {
    jest.useFakeTimers();
    try {
      const acks = new ServerAcks(1_000);
      acks.expect('taken');
      acks.expect('silent');
      acks.expect('cut');
      acks.received({ id: 'taken' });
      const silent = acks.outcome('silent');
      jest.advanceTimersByTime(1_000);
      await expect(acks.outcome('taken')).resolves.toBeUndefined();
      await expect(silent).resolves.toBeUndefined();
      const cut = acks.outcome('cut');
      acks.socketClosed();
      await expect(cut).resolves.toBeUndefined();
      expect(['taken', 'silent', 'cut'].map((id) => acks.reportedBySend(id))).toEqual([false, false, false]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('leaves acks of stanzas nobody waits for to Baileys: no outcome, not reported by a send', async () => {
    const acks = new ServerAcks(1_000);
    acks.received({ id: 'B', error: '479' });
    expect(acks.reportedBySend('B')).toBe(false);
    await expect(acks.outcome('B')).resolves.toBeUndefined();
  });
});
