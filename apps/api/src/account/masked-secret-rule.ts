/** A masked value that is not the stored secret's mask: a stale copy, or a mask typed in as if it were a secret. */
export const MASKED_SECRET_RULE = (field: string): string =>
  `${field} is a masked value that does not match the current secret; send the full new secret, or the value read back unchanged to keep it`;
