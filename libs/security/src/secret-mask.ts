/** The character that marks a masked secret; it never occurs in a secret the API accepts. */
const MASK_MARK = '…';
const WEBHOOK_PREFIX = 'whsec_';
/** Below this length the last characters would give away too much of the secret, so none are shown. */
const MIN_LENGTH_TO_SHOW_TAIL = 16;

/**
 * How a stored secret is shown: its `whsec_` prefix (when it has one), `…`, and its last four characters, e.g.
 * `whsec_…a1b2`; an empty string when none is set. Enough to tell secrets apart, never enough to sign with.
 */
export function maskSecret(secret: string | null | undefined): string {
  if (!secret) return '';
  const prefix = secret.startsWith(WEBHOOK_PREFIX) ? WEBHOOK_PREFIX : '';
  const tail = secret.length - prefix.length >= MIN_LENGTH_TO_SHOW_TAIL ? secret.slice(-4) : '';
  return `${prefix}${MASK_MARK}${tail}`;
}

export function isMaskedSecret(value: string): boolean {
  return value.includes(MASK_MARK);
}

/**
 * What a write of a secret field means: `keep` for the masked form of the stored secret echoed back (a client that
 * read the settings and sends them back unchanged), `invalid` for any other masked-looking value, else the new value.
 */
export function secretWrite(input: string, stored: string | null): { kind: 'keep' } | { kind: 'invalid' } | { kind: 'set'; value: string } {
  if (!isMaskedSecret(input)) return { kind: 'set', value: input };
  return stored !== null && input === maskSecret(stored) ? { kind: 'keep' } : { kind: 'invalid' };
}
