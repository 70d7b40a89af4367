// Shared by the API and the console's composer (imported through '@contracts/phone-number'): no imports, browser-safe.

/** E.164: a country code and a subscriber number, at most 15 digits; the shortest in use have 7. */
export const MIN_PHONE_DIGITS = 7;
export const MAX_PHONE_DIGITS = 15;

/** What people put between digit groups when they write or paste a number: spaces, dashes, dots, parentheses, slashes. */
const SEPARATORS = /[\s\-.()/]/gu;

/** The number's digits with the country code, or what is wrong with it in words a person can act on. */
export type PhoneNumberReading = { digits: string; problem?: undefined } | { digits?: undefined; problem: string };

const distinct = (characters: string[]) => [...new Set(characters)].join('');

/**
 * Reads an international number as people write it: `+44 7700 900123`, `+1 (415) 555-0123`, `0044 7700 900123`,
 * `1.415.555.0123`. A leading `+` or `00` is the international prefix; separators are dropped.
 */
export function readPhoneNumber(input: string): PhoneNumberReading {
  const text = input.trim();
  const letters = text.match(/\p{L}/gu);
  if (letters) return { problem: `remove the letters '${distinct(letters)}'` };
  const compact = text.replace(SEPARATORS, '');
  const others = compact.replace(/[\d+]/g, '');
  if (others) return { problem: `remove the characters '${distinct([...others])}'` };
  if (compact.lastIndexOf('+') > 0) return { problem: 'a + may only come first' };
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else if (compact.startsWith('0'))
    return { problem: 'a leading 0 means a national number; write the country code instead (+44 7700 900123)' };
  else digits = compact;
  if (!digits) return { problem: 'no digits: write the number with its country code (+44 7700 900123)' };
  if (digits.startsWith('0')) return { problem: 'a country code never starts with 0' };
  if (digits.length < MIN_PHONE_DIGITS)
    return { problem: `too short: ${digits.length} digits, an international number has ${MIN_PHONE_DIGITS} to ${MAX_PHONE_DIGITS}` };
  if (digits.length > MAX_PHONE_DIGITS)
    return { problem: `too long: ${digits.length} digits, an international number has ${MIN_PHONE_DIGITS} to ${MAX_PHONE_DIGITS}` };
  return { digits };
}

/**
 * Why a value meant as a number was refused, or undefined when it is not meant as one: JIDs (with `@`) and words without
 * a single digit keep their rule's general wording.
 */
export function phoneNumberProblem(input: string): string | undefined {
  if (input.includes('@') || !/\d/.test(input)) return undefined;
  return readPhoneNumber(input).problem;
}
