import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import type { InputRule } from './input-rules';

const follows = (rule: InputRule, value: unknown): boolean => typeof value === 'string' && rule.accept(value) !== undefined;

/**
 * The field follows `rule`; on a list every element does, and the first that does not is named by its index:
 * `participants[1] must be a user JID or an international number`.
 */
export function Follows(rule: InputRule): PropertyDecorator {
  return ValidateBy({
    name: 'follows',
    validator: {
      validate: (value: unknown) => (Array.isArray(value) ? value.every((item) => follows(rule, item)) : follows(rule, value)),
      defaultMessage: ({ property, value }: ValidationArguments) => {
        const index = Array.isArray(value) ? value.findIndex((item) => !follows(rule, item)) : -1;
        const refused: unknown = Array.isArray(value) ? value[index] : value;
        return refusal(`${property}${index >= 0 ? `[${index}]` : ''}`, rule, refused);
      },
    },
  });
}

/** `<field>: <what is wrong>` when the rule can tell, else `<field> must be <expected>`. */
export function refusal(field: string, rule: InputRule, value: unknown): string {
  const problem = typeof value === 'string' ? rule.problem?.(value) : undefined;
  return problem ? `${field}: ${problem}` : `${field} must be ${rule.expected}`;
}

/**
 * Services receive the value as `rule` normalises it (a bare number becomes a JID, an invite link its code); on a list,
 * every element. Values that break the rule are left as sent, so `Follows` reports them as the caller wrote them.
 */
export function NormalisedBy(rule: InputRule): PropertyDecorator {
  const one = (value: unknown): unknown => (typeof value === 'string' ? (rule.accept(value) ?? value) : value);
  return Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(one) : one(value)));
}
