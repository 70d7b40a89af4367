const MAX_DEPTH = 24;

const PERSON_SERVERS = ['@lid', '@s.whatsapp.net'];
const isPerson = (value: string) => PERSON_SERVERS.some((server) => value.endsWith(server));

/**
 * Every person (LID or phone-number JID) a batch mentions anywhere (message keys, participants, presences, mentions,
 * quotes), so that the other identity Baileys knows for each is looked up once per batch instead of once per person.
 */
export function peopleIn(value: unknown, into = new Set<string>()): Set<string> {
  walk(value, into, 0, new WeakSet());
  return into;
}

function walk(value: unknown, into: Set<string>, depth: number, visited: WeakSet<object>): void {
  if (typeof value === 'string') {
    if (isPerson(value)) into.add(value);
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
  if (ArrayBuffer.isView(value) || visited.has(value)) return;
  visited.add(value);
  if (Array.isArray(value)) {
    for (const child of value as unknown[]) walk(child, into, depth + 1, visited);
    return;
  }
  // Keys too: presences are keyed by participant.
  for (const [key, child] of Object.entries(value)) {
    if (isPerson(key)) into.add(key);
    walk(child, into, depth + 1, visited);
  }
}
