import { targetShareOf } from './shard-ownership';

// The ownership itself runs against PostgreSQL: test/repositories/shard-ownership.repo-spec.ts.
describe('targetShareOf', () => {
  it('gives the first shardCount % n workers, by sorted id, one shard more', () => {
    const workers = ['c', 'a', 'b'];
    expect(workers.map((id) => targetShareOf(id, workers, 16))).toEqual([5, 6, 5]);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => targetShareOf(id, ['e', 'd', 'c', 'b', 'a'], 3))).toEqual([1, 1, 1, 0, 0]);
  });

  it('counts the asking worker as live even when it is missing from the list', () => {
    expect(targetShareOf('b', ['a'], 16)).toBe(8);
    expect(targetShareOf('a', [], 16)).toBe(16);
  });
});
