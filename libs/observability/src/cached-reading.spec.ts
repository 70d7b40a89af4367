import { CachedReading } from './cached-reading';

describe('CachedReading', () => {
  it('reuses a fresh value, reads again once it is old, and keeps the last value when a read fails', async () => {
    let clock = 0;
    const answers: (() => Promise<number>)[] = [
      () => Promise.resolve(1),
      () => Promise.resolve(2),
      () => Promise.reject(new Error('down')),
    ];
    const errors: string[] = [];
    let reads = 0;
    const reading = new CachedReading(
      () => answers[reads++](),
      { maxAgeMs: 5_000, waitMs: 1_000, onError: (error) => errors.push(error.message) },
      () => clock,
    );
    const seen = [await reading.get()];
    clock = 4_000;
    seen.push(await reading.get());
    clock = 6_000;
    seen.push(await reading.get());
    clock = 12_000;
    seen.push(await reading.get());
    expect({ seen, reads, errors }).toEqual({ seen: [1, 1, 2, 2], reads: 3, errors: ['down'] });
  });

  it('answers with the last value when a read hangs past waitMs, and starts no second read meanwhile', async () => {
    let clock = 0;
    let reads = 0;
    let finishSlowRead: (value: number) => void = () => undefined;
    const reading = new CachedReading(
      () => {
        reads += 1;
        return reads === 1 ? Promise.resolve(7) : new Promise<number>((resolve) => (finishSlowRead = resolve));
      },
      { maxAgeMs: 5_000, waitMs: 20 },
      () => clock,
    );
    await reading.get();
    clock = 10_000;
    const whileHanging = [await reading.get(), await reading.get()];
    finishSlowRead(8);
    await new Promise((resolve) => setImmediate(resolve));
    expect({ whileHanging, after: await reading.get(), reads }).toEqual({ whileHanging: [7, 7], after: 8, reads: 2 });
  });
});
