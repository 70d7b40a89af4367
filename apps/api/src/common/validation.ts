import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { AppError } from '@app/contracts';
import { certainlyValid } from './validity-check';

/** Constraints that mean "the JSON has the wrong shape" rather than "a value breaks a rule". */
const TYPE_CONSTRAINTS = new Set(['isString', 'isBoolean', 'isInt', 'isNumber', 'isArray', 'isObject', 'nestedValidation']);

interface Violation {
  path: string;
  property: string;
  constraint: string;
  message: string;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function collect(errors: ValidationError[], parent = ''): Violation[] {
  return errors.flatMap((error) => {
    const path = joinPath(parent, error.property);
    const constraints = Object.entries(error.constraints ?? {});
    // A missing required field fails every other rule too; "is required" is the whole story.
    const relevant = constraints.some(([name]) => name === 'isDefined')
      ? constraints.filter(([name]) => name === 'isDefined')
      : constraints;
    const own = relevant.map(([constraint, message]) => ({ path, property: error.property, constraint, message }));
    return [...own, ...collect(error.children ?? [], path)];
  });
}

/** `buttons[2].text must be at most 20 characters`, whatever the decorator's own wording of the property. */
function describe(violation: Violation): string {
  if (violation.constraint === 'whitelistValidation') return `property ${violation.path} should not exist`;
  const { property, message } = violation;
  // A rule checked element by element names the element it refused: `participants[1] must be ...`.
  // ... or says what exactly is wrong with it: `to: remove the letters 'abc'`.
  if (message.startsWith(`${property}[`) || message.startsWith(`${property}:`)) return `${violation.path}${message.slice(property.length)}`;
  const predicate = message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
  return `${violation.path} ${predicate}`;
}

export function toAppError(errors: ValidationError[]): AppError {
  const violations = collect(errors);
  if (violations.length === 0 || violations.some((violation) => TYPE_CONSTRAINTS.has(violation.constraint))) {
    return new AppError('invalid_body');
  }
  return AppError.validation([...new Set(violations.map(describe))].join('; '));
}

/** Validate once, at the edge: unknown fields rejected, every problem reported with its field path. */
class EdgeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      // An absent body is an empty object; a JSON array or scalar is never a valid request body here.
      if (value === undefined) value = {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('invalid_body');
    }
    return super.transform(value, metadata);
  }

  /** Valid bodies (nearly all) pass on the rules compiled once per DTO; class-validator checks the rest and words the errors. */
  protected override validate(object: object, validatorOptions?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    if (certainlyValid(object)) return [];
    return super.validate(object, validatorOptions);
  }
}

/** class-validator's options at the edge; `certainlyValid` reproduces class-validator's verdict under exactly these. */
export const EDGE_VALIDATOR_OPTIONS = Object.freeze({ whitelist: true, forbidNonWhitelisted: true } satisfies ValidatorOptions);

export function createValidationPipe(): ValidationPipe {
  return new EdgeValidationPipe({
    ...EDGE_VALIDATOR_OPTIONS,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toAppError(errors),
  });
}
