import { MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('body depth', () => {
  it('counts the body itself as level 1 and scalars as no level', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true);
  });

  it(`allows ${MAX_BODY_DEPTH} levels and refuses one more`, () => {
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
  });

  it('walks 100,000 levels without recursion', () => {
    expect(nestsDeeperThan(nested(100_000), MAX_BODY_DEPTH)).toBe(true);
  });
});
