import { isMaskedSecret, maskSecret, secretWrite } from './secret-mask';

describe('maskSecret', () => {
  it('shows the whsec_ prefix and the last four characters of a long secret, nothing of a short one', () => {
    expect(maskSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe('whsec_…LaSw');
    expect(maskSecret('a-very-long-signing-secret')).toBe('…cret');
    expect(maskSecret('whsec_short')).toBe('whsec_…');
    expect(maskSecret(null)).toBe('');
    expect(isMaskedSecret(maskSecret('a-very-long-signing-secret'))).toBe(true);
  });

  it('keeps the stored secret when its mask is echoed back, and refuses any other masked value', () => {
    const stored = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(secretWrite('whsec_…LaSw', stored)).toEqual({ kind: 'keep' });
    expect(secretWrite('whsec_…abcd', stored)).toEqual({ kind: 'invalid' });
    expect(secretWrite('whsec_…LaSw', null)).toEqual({ kind: 'invalid' });
    expect(secretWrite('a-brand-new-signing-secret', stored)).toEqual({ kind: 'set', value: 'a-brand-new-signing-secret' });
    expect(secretWrite('', stored)).toEqual({ kind: 'set', value: '' });
  });
});
