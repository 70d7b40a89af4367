import { eventually } from './event-log';

describe('eventually', () => {
  it('returns the first value that passes the check', async () => {
    let reads = 0;
    await expect(
      eventually(
        () => Promise.resolve((reads += 1)),
        (value) => value === 3,
      ),
    ).resolves.toBe(3);
    expect(reads).toBe(3);
  });

  it('throws on timeout with the last value it saw', async () => {
    let reads = 0;
    const waiting = eventually(
      () => Promise.resolve({ reads: (reads += 1), seen: new Set(['a']) }),
      (value) => value.reads < 0,
      250,
    );
    await expect(waiting).rejects.toThrow(
      /^eventually: not true within 250 ms: .*\nlast value: \{"reads":\d+,"seen":\{"Set":\["a"\]\}\}$/s,
    );
    await expect(waiting).rejects.toThrow(`last value: {"reads":${reads},`);
  });

  it('keeps reading through errors, and throws on timeout with the last one', async () => {
    let reads = 0;
    const read = () => {
      reads += 1;
      return reads === 1 ? Promise.reject(new Error('not yet')) : Promise.reject(new Error(`still failing (${reads})`));
    };
    await expect(eventually(read, () => true, 250)).rejects.toThrow(/\nlast error: still failing \(\d+\)$/);
    expect(reads).toBeGreaterThan(1);
  });
});
