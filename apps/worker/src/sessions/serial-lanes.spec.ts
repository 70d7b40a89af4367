import { SerialLanes } from './serial-lanes';

describe('SerialLanes', () => {
  it('runs tasks of one key in order and different keys side by side', async () => {
    const lanes = new SerialLanes();
    const order: string[] = [];
    const task = (label: string, ms: number) => () => new Promise<void>((resolve) => setTimeout(() => (order.push(label), resolve()), ms));
    await Promise.all([lanes.run('a', task('a1', 30)), lanes.run('a', task('a2', 1)), lanes.run('b', task('b1', 10))]);
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });

  it('keeps going after a failed task', async () => {
    const lanes = new SerialLanes();
    await expect(lanes.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lanes.run('a', () => Promise.resolve(7))).resolves.toBe(7);
    await lanes.drain();
  });
});
