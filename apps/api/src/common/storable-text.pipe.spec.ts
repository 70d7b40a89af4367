import { findUnstorableText, isStorable } from './storable-text.pipe';

describe('text PostgreSQL can store', () => {
  it('accepts ordinary text, including surrogate pairs (emoji)', () => {
    for (const text of ['', 'hello', 'ünïcödé', '\uD83D\uDE00', 'a\uD83D\uDE00b\uD83C\uDF89'])
      expect({ text, ok: isStorable(text) }).toEqual({ text, ok: true });
  });

  it('refuses NUL and lone surrogates, high or low, at any position', () => {
    for (const text of ['\u0000', 'a\u0000', '\uD800', 'a\uD800b', '\uDC00', 'x\uDFFF', '\uDE00\uD83D', '\uD83D\uD83D\uDE00\uDE00']) {
      expect({ text, ok: isStorable(text) }).toEqual({ text, ok: false });
    }
  });

  it('names the path of the first unstorable string or property name', () => {
    expect(findUnstorableText({ to: 'x', buttons: [{ text: 'ok' }, { text: 'a\u0000' }] })).toBe('buttons[1].text');
    expect(findUnstorableText({ nested: { ['k\uD800']: 1 } })).toBe('nested.k\uFFFD');
    expect(findUnstorableText('a\u0000', 'messageId')).toBe('messageId');
    expect(findUnstorableText({ to: 'x', n: 1, flag: true, list: [null, 2] })).toBeUndefined();
  });
});
