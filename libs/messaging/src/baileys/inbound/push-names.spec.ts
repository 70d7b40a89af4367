import { PushNames } from './push-names';

describe('PushNames', () => {
  it('announces a name only when it replaces a different known one, and remembers the latest', async () => {
    const names = new PushNames();
    expect(await names.changed('a@s.whatsapp.net', 'Ana')).toBe(false);
    expect(await names.changed('a@s.whatsapp.net', 'Ana')).toBe(false);
    expect(await names.changed('a@s.whatsapp.net', 'Ana B.')).toBe(true);
    expect(await names.changed('a@s.whatsapp.net', 'Ana B.')).toBe(false);
  });

  it('asks the store about people this socket has not met, and only once', async () => {
    const asked: string[] = [];
    const names = new PushNames((jid) => {
      asked.push(jid);
      return Promise.resolve(jid.startsWith('a') ? 'Ana' : null);
    });
    expect(await names.changed('a@s.whatsapp.net', 'Ana')).toBe(false);
    expect(await names.changed('b@s.whatsapp.net', 'Bob')).toBe(false);
    expect(await names.changed('a@s.whatsapp.net', 'Annie')).toBe(true);
    expect(asked).toEqual(['a@s.whatsapp.net', 'b@s.whatsapp.net']);
  });
});
