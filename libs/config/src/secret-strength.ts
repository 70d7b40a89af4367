/** Character classes and how many symbols each adds to the pool a random string is drawn from. */
const CLASSES: Array<[RegExp, number]> = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[^A-Za-z0-9]/, 33],
];

const MIN_SECRET_BITS = 128;
const MIN_DISTINCT_CHARACTERS = 12;

/**
 * Why a configured secret is too weak to guard the operator plane, or undefined when it is strong enough. The estimate
 * is the most a string of this length and these character classes can hold (length × log2(pool)); low diversity
 * (few distinct characters, or one character filling a quarter of it) is refused on top, since `aaaa…` or a repeated
 * word scores well on length alone. Random output (`openssl rand -base64 32`, `-hex 16`) passes both.
 */
export function secretWeakness(value: string): string | undefined {
  const pool = CLASSES.reduce((size, [pattern, symbols]) => (pattern.test(value) ? size + symbols : size), 0);
  const bits = Math.floor(value.length * Math.log2(Math.max(pool, 1)));
  if (bits < MIN_SECRET_BITS) return `holds at most ${bits} bits of randomness, ${MIN_SECRET_BITS} are required`;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const mostRepeated = Math.max(...counts.values());
  if (counts.size < MIN_DISTINCT_CHARACTERS || mostRepeated * 4 > value.length) {
    return `is not random enough (${counts.size} distinct characters, one of them ${mostRepeated} times)`;
  }
  return undefined;
}
