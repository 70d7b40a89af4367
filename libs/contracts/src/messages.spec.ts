import { newMessageId } from './messages';

describe('newMessageId', () => {
  it('gives ids in the network format, none repeated across many refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newMessageId());
    expect(ids.filter((id) => !/^3EB0[0-9A-F]{18}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in every position (no byte of the pool reused or left zero)', () => {
    const ids = Array.from({ length: 4_000 }, () => newMessageId());
    for (let position = 4; position < 22; position += 1) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });
});
