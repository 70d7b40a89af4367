import { getMetadataStorage, ValidationTypes, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * A fast yes for valid request bodies, with class-validator's own rules: per DTO class the rules are looked up and
 * grouped once (class-validator does it again for every object it validates, and finds each rule's validator by a linear
 * search of all of them), then an object is checked by calling the same validators with the same arguments in the same
 * order as class-validator's `ValidationExecutor` with the edge pipe's options (`whitelist`, `forbidNonWhitelisted`,
 * `forbidUnknownValues` on by default; no groups, no `always`, no skipping of missing properties).
 *
 * `true` only when class-validator would find no error at all. Anything else (a rule broken, an asynchronous validator,
 * a kind of rule this check does not know) is `false`, and the caller asks class-validator itself, which then writes
 * the errors: this module never decides what a client is told, only that nothing needs telling.
 *
 * Assumes class-validator's default container (the project never calls `useContainer`): a validator class has one
 * instance for the life of the process, so it is looked up once.
 */

interface Constraint {
  instance: ValidatorConstraintInterface;
}

interface RuleSet {
  /** `isDefined` rules, run before the others as class-validator runs them. */
  defined: CompiledRule[];
  custom: CompiledRule[];
  nested: ValidationMetadata[];
  conditions: ValidationMetadata[];
}

interface CompiledRule {
  metadata: ValidationMetadata;
  constraints: Constraint[];
}

interface Plan {
  /** False: the class has rules this check does not reproduce; class-validator decides. */
  supported: boolean;
  /** No rule at all: class-validator refuses the object (`forbidUnknownValues`). */
  empty: boolean;
  allowed: ReadonlySet<string>;
  properties: [string, RuleSet][];
}

/** A class rules were declared on (class-validator types it as any function). */
type Target = Exclude<ValidationMetadata['target'], string>;

const KNOWN_TYPES = new Set<string>([
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
]);

/** Per class, per schema name (class-validator looks nested objects up with their parent's name as schema). */
const plans = new Map<Target, Map<string | undefined, Plan>>();

function planOf(target: Target, schema: string | undefined): Plan {
  let bySchema = plans.get(target);
  if (!bySchema) {
    bySchema = new Map();
    plans.set(target, bySchema);
  }
  let plan = bySchema.get(schema);
  if (!plan) {
    plan = compile(target, schema);
    bySchema.set(schema, plan);
  }
  return plan;
}

function compile(target: Target, schema: string | undefined): Plan {
  const storage = getMetadataStorage();
  // The same call, with the same arguments, as ValidationExecutor.execute makes under the edge pipe's options.
  const metadatas = storage.getTargetValidationMetadatas(target, schema as string, false, false, undefined);
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    const list = grouped.get(metadata.propertyName) ?? [];
    list.push(metadata);
    grouped.set(metadata.propertyName, list);
  }
  const rule = (metadata: ValidationMetadata): CompiledRule => ({
    metadata,
    constraints: storage.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => {
      if (constraint.async) throw new UnsupportedRule();
      return { instance: constraint.instance };
    }),
  });
  try {
    const properties: [string, RuleSet][] = [...grouped].map(([propertyName, list]) => {
      for (const metadata of list) if (!KNOWN_TYPES.has(metadata.type)) throw new UnsupportedRule();
      const others = list.filter((m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST);
      return [
        propertyName,
        {
          defined: list.filter((m) => m.type === ValidationTypes.IS_DEFINED).map(rule),
          custom: others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION).map(rule),
          nested: others.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION),
          conditions: others.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
        },
      ];
    });
    return { supported: true, empty: metadatas.length === 0, allowed: new Set(grouped.keys()), properties };
  } catch (error) {
    if (error instanceof UnsupportedRule) return { supported: false, empty: false, allowed: new Set(), properties: [] };
    throw error;
  }
}

class UnsupportedRule extends Error {}

/** class-validator's answer was not a plain boolean (a promise): it decides. */
class NotSure extends Error {}

function passes(constraint: Constraint, value: unknown, args: ValidationArguments): boolean {
  const outcome: unknown = constraint.instance.validate(value, args);
  if (typeof outcome === 'object' && outcome !== null && typeof (outcome as { then?: unknown }).then === 'function') throw new NotSure();
  return Boolean(outcome);
}

function rulesHold(object: object, value: unknown, rules: CompiledRule[]): boolean {
  for (const { metadata, constraints } of rules) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    for (const constraint of constraints) {
      const args: ValidationArguments = {
        targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
        property: metadata.propertyName,
        object,
        value,
        constraints: metadata.constraints,
      };
      if (!metadata.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
        if (!passes(constraint, value, args)) return false;
        continue;
      }
      const items: unknown[] = Array.isArray(value) ? value : [...(value as Set<unknown> | Map<unknown, unknown>).values()];
      // class-validator calls the validator on every item before it looks at the outcomes.
      const outcomes = items.map((item) => constraint.instance.validate(item, args) as unknown);
      if (outcomes.some((outcome) => typeof (outcome as { then?: unknown } | null)?.then === 'function')) throw new NotSure();
      if (!outcomes.every(Boolean)) return false;
    }
  }
  return true;
}

function nestedHold(value: unknown, nested: ValidationMetadata[]): boolean {
  if (value === undefined) return true;
  for (const metadata of nested) {
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      const items: unknown[] = value instanceof Set ? [...value] : value instanceof Map ? [...value.values()] : value;
      for (const item of items) if (!nestedHold(item, [metadata])) return false;
    } else if (value instanceof Object) {
      if (!holds(value, typeof metadata.target === 'string' ? metadata.target : metadata.target.name)) return false;
    } else {
      return false;
    }
  }
  return true;
}

function holds(object: object, schema: string | undefined): boolean {
  const plan = planOf(object.constructor, schema);
  if (!plan.supported) throw new NotSure();
  if (plan.empty) return false;
  for (const key of Object.keys(object)) if (!plan.allowed.has(key)) return false;
  for (const [propertyName, rules] of plan.properties) {
    const value: unknown = (object as Record<string, unknown>)[propertyName];
    if (value instanceof Promise) throw new NotSure();
    let applies = true;
    // Every condition is evaluated, as class-validator evaluates them all before combining.
    for (const condition of rules.conditions) {
      const conditionHolds = Boolean((condition.constraints[0] as (object: object, value: unknown) => unknown)(object, value));
      applies = applies && conditionHolds;
    }
    if (!applies) continue;
    if (!rulesHold(object, value, rules.defined)) return false;
    if (!rulesHold(object, value, rules.custom)) return false;
    if (!nestedHold(value, rules.nested)) return false;
  }
  return true;
}

/**
 * True when class-validator (with the edge pipe's options) would find no error in `object`; false when it might. A
 * validator that throws is class-validator's to report: false.
 */
export function certainlyValid(object: object): boolean {
  try {
    return holds(object, undefined);
  } catch {
    return false;
  }
}
