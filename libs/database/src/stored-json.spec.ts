import { inStoredKeyOrder } from './stored-json';

describe('inStoredKeyOrder', () => {
  it('orders keys the way PostgreSQL jsonb prints them, at every depth', () => {
    const value = { text: 1, id: 2, chatId: 3, b: { zz: 1, a: 2 }, é: 4, z: 5, ab: [{ yy: 1, x: 0 }], aé: 6, ba: 7 };
    // SELECT '<value>'::jsonb::text (PostgreSQL 15), whitespace removed.
    const fromPostgres = '{"b":{"a":2,"zz":1},"z":5,"ab":[{"x":0,"yy":1}],"ba":7,"id":2,"é":4,"aé":6,"text":1,"chatId":3}';
    expect(JSON.stringify(inStoredKeyOrder(value))).toBe(fromPostgres);
  });

  it('leaves scalars, nulls and arrays of scalars as they are', () => {
    expect(inStoredKeyOrder({ list: [3, 'a', null, true], none: null })).toEqual({ list: [3, 'a', null, true], none: null });
    expect(inStoredKeyOrder('text')).toBe('text');
  });
});
