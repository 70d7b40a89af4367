import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { EDGE_VALIDATOR_OPTIONS } from './validation';
import { certainlyValid } from './validity-check';

// Every DTO of the API, each checked on random bodies built from values its own rules name: the fast check must say
// "valid" exactly when class-validator finds no error, never once when it finds one.

function dtoFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return dtoFiles(path);
    return entry.name.endsWith('.dto.ts') ? [path] : [];
  });
}

type Class = new () => object;
const storage = getMetadataStorage();
const rulesOf = (target: Class): ValidationMetadata[] => storage.getTargetValidationMetadatas(target, '', false, false, undefined);
let classes: Class[] = [];

beforeAll(async () => {
  for (const file of dtoFiles(join(__dirname, '..'))) await import(file);
  classes = [...(storage as unknown as { validationMetadatas: Map<unknown, unknown> }).validationMetadatas.keys()].filter(
    (target): target is Class => typeof target === 'function' && rulesOf(target as Class).length > 0,
  );
});

/** class-transformer's record of `@Type(() => Nested)` (its storage module is not typed for a deep import). */
const typeMetadata = jest.requireActual<{
  defaultMetadataStorage: { findTypeMetadata(target: Class, property: string): { typeFunction(): unknown } | undefined };
}>('class-transformer/cjs/storage').defaultMetadataStorage;

// A deterministic generator, so a failure can be reproduced.
let seed = 20261128;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

const COMMON: unknown[] = [
  '',
  ' ',
  'x',
  'hello',
  '447700900123',
  '+44 7700 900123',
  '14155550123@s.whatsapp.net',
  '14155550123:2@s.whatsapp.net',
  '120363000000000000@g.us',
  '1234567890@lid',
  'status@broadcast',
  '120363000000000000@newsletter',
  'https://example.com/a.png',
  'http://127.0.0.1/x',
  'aGVsbG8=',
  'image/png',
  '2026-01-01T00:00:00Z',
  '3EB0AAAAAAAAAAAAAAAAAA',
  'a'.repeat(5000),
  0,
  1,
  -1,
  1.5,
  3,
  60,
  1e12,
  true,
  false,
  null,
  [],
  ['x'],
  ['447700900123'],
  ['14155550123@s.whatsapp.net'],
  [1],
  {},
];

/** The values of COMMON that some field takes. */
const LIKELY: unknown[] = [
  'hello',
  '447700900123',
  '14155550123@s.whatsapp.net',
  '120363000000000000@g.us',
  'https://example.com/a.png',
  'aGVsbG8=',
  'image/png',
  '2026-01-01T00:00:00Z',
  3,
  true,
  ['14155550123@s.whatsapp.net'],
];

/** Values a property's rules name themselves (`IsIn` lists, limits), and their neighbours. */
function namedValues(rules: ValidationMetadata[]): unknown[] {
  const values: unknown[] = [];
  for (const rule of rules) {
    for (const constraint of (rule.constraints ?? []) as unknown[]) {
      const items = Array.isArray(constraint) ? (constraint as unknown[]) : [constraint];
      for (const item of items) {
        if (typeof item === 'string') values.push(item, [item]);
        if (typeof item === 'number' && Number.isFinite(item))
          values.push(item, item + 1, item - 1, 'x'.repeat(Math.min(Math.max(item, 0), 5000)));
      }
    }
  }
  return values;
}

function groupedRules(target: Class): Map<string, ValidationMetadata[]> {
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const rule of rulesOf(target)) grouped.set(rule.propertyName, [...(grouped.get(rule.propertyName) ?? []), rule]);
  return grouped;
}

const ABSENT = Symbol('absent');

/**
 * Per property, the candidate values that break none of that property's own rules in a body of that property alone
 * (ABSENT: leaving it out): random bodies drawn mostly from these reach the valid side, and mixing them tests the rules
 * that relate fields (exclusive, required together).
 */
const acceptable = new Map<Class, Map<string, unknown[]>>();
async function acceptableValues(target: Class): Promise<Map<string, unknown[]>> {
  const known = acceptable.get(target);
  if (known) return known;
  const byProperty = new Map<string, unknown[]>();
  for (const [property, rules] of groupedRules(target)) {
    const candidates = [ABSENT, ...LIKELY, ...namedValues(rules)];
    const good: unknown[] = [];
    for (const candidate of candidates) {
      const plain = candidate === ABSENT ? {} : { [property]: candidate };
      const errors = await validate(plainToInstance(target, plain), EDGE_VALIDATOR_OPTIONS);
      if (!errors.some((error) => error.property === property)) good.push(candidate);
    }
    byProperty.set(property, good);
  }
  acceptable.set(target, byProperty);
  return byProperty;
}

async function body(target: Class, depth: number): Promise<Record<string, unknown>> {
  const good = await acceptableValues(target);
  const result: Record<string, unknown> = {};
  for (const [property, rules] of groupedRules(target)) {
    const nested = typeMetadata.findTypeMetadata(target, property)?.typeFunction() as Class | undefined;
    if (nested && depth < 3 && random() < 0.8) {
      const one = () => body(nested, depth + 1);
      result[property] = random() < 0.5 ? await one() : await Promise.all(Array.from({ length: Math.floor(random() * 4) }, one));
      continue;
    }
    const candidates = good.get(property) ?? [];
    // Optional fields are mostly left out, as clients do, so that the fields that relate to each other are rarely all set.
    const value =
      candidates.length === 0 || random() >= 0.85
        ? pick([ABSENT, ...COMMON, ...namedValues(rules)])
        : candidates.includes(ABSENT) && random() < 0.6
          ? ABSENT
          : pick(candidates);
    if (value !== ABSENT) result[property] = value;
  }
  if (random() < 0.05) result.unexpected = 'x';
  return result;
}

const count = (errors: ValidationError[]): number => errors.length;

describe('certainlyValid', () => {
  it('finds the DTOs of the API', () => {
    expect(classes.length).toBeGreaterThan(60);
  });

  it('agrees with class-validator on every DTO: valid exactly when it finds no error', async () => {
    const validSeen = new Set<Class>();
    const disagreements: string[] = [];
    for (const target of classes) {
      for (let round = 0; round < 20; round += 1) {
        const plain = await body(target, 1);
        const entity = plainToInstance(target, plain);
        const errors = count(await validate(entity, EDGE_VALIDATOR_OPTIONS));
        const fast = certainlyValid(entity);
        if (errors === 0) validSeen.add(target);
        if (fast !== (errors === 0))
          disagreements.push(`${target.name} ${JSON.stringify(plain).slice(0, 300)}: fast ${fast}, errors ${errors}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    // The bodies reach the valid side of most DTOs, so the comparison means something there too.
    expect(validSeen.size).toBeGreaterThan(classes.length * 0.6);
  });

  it('refuses an object of a class without rules, and a property no rule names', () => {
    class Bare {}
    expect(certainlyValid(new Bare())).toBe(false);
    const [target] = classes;
    expect(certainlyValid(Object.assign(new target(), { surelyNotAField: 1 }))).toBe(false);
  });
});
