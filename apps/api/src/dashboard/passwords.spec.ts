import { assertAcceptablePassword, hashPassword, isCommonPassword, passwordMatches } from './passwords';

describe('password policy', () => {
  it.each([
    'password',
    'Password1234',
    'qwertyuiop123!',
    '!!letmein2024',
    'qwertyqwerty',
    'aaaaaaaaaaaaaaaa',
    '123456789012',
    'zyxwvutsrqpo',
  ])('calls %s common', (password) => expect(isCommonPassword(password)).toBe(true));

  it.each(['correct horse battery staple', 'tr0ub4dor&3-extended', 'my dog eats 7 lemons'])('accepts %s', (password) => {
    expect(isCommonPassword(password)).toBe(false);
    expect(() => assertAcceptablePassword(password)).not.toThrow();
  });

  it('counts characters, not UTF-16 units, for the minimum length', () => {
    expect(() => assertAcceptablePassword('🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toThrow('validation error: password must be at least 12 characters');
  });

  it('hashes with argon2id and verifies; a missing hash never matches', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(passwordMatches(stored, 'correct horse battery staple')).resolves.toBe(true);
    await expect(passwordMatches(stored, 'correct horse battery stapler')).resolves.toBe(false);
    await expect(passwordMatches(null, 'correct horse battery staple')).resolves.toBe(false);
  });
});
