import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsOptional,
  IsString,
  ValidateBy,
  ValidateIf,
  buildMessage,
  isISO8601,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { charCount, MAX_URL_CHARS } from '@app/contracts';

export const REQUIRED = { message: 'is required' };

/**
 * Length as people count characters: Unicode code points (`[...value].length`), not UTF-16 units, so an emoji
 * outside the BMP counts once, as it does for the network's limits and for JSON Schema's `maxLength`.
 * A multi-code-point emoji (skin tone, ZWJ family) still counts as several. Shared with the dashboard.
 */
export { charCount, MAX_URL_CHARS };

export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'maxChars',
        constraints: [max],
        validator: {
          validate: (value: unknown) => typeof value === 'string' && charCount(value) <= max,
          defaultMessage: buildMessage(() => `must be at most ${max} characters`, options),
        },
      },
      options,
    ),
    ApiProperty({ maxLength: max }),
  );
}

// The two text fields every message DTO has. applyDecorators runs them in the order given, which is the order the stacked
// form (`@IsDefined(REQUIRED) @IsString() @IsNotBlank() @MaxChars(max)`) applies them in: bottom-up. Errors and the
// schema come out the same.

/** A required string that says something (not blank), at most `max` characters. */
export const RequiredText = (max: number): PropertyDecorator =>
  applyDecorators(MaxChars(max), IsNotBlank(), IsString(), IsDefined(REQUIRED));

/** An optional string of at most `max` characters. */
export const OptionalText = (max: number): PropertyDecorator => applyDecorators(MaxChars(max), IsString(), IsOptional());

/**
 * The file of a media body (messages and status posts), in the stacked order (bottom-up) of the two fields' rules:
 * `url`, required unless `data` is given and never with it, an http(s) URL of at most MAX_URL_CHARS ...
 */
export const MediaUrlField = (): PropertyDecorator =>
  applyDecorators(
    ExclusiveWith('data'),
    IsHttpUrl(),
    MaxChars(MAX_URL_CHARS),
    IsString(),
    IsDefined({ message: 'or data is required' }),
    ValidateIf((body: { url?: unknown; data?: unknown }) => body.url != null || body.data == null),
  );

/** ... and `data`, the file itself, base64-encoded. */
export const MediaDataField = (): PropertyDecorator => applyDecorators(IsBase64Data(), IsString(), IsOptional());

/** Required text must say something: the empty string and whitespace alone are refused. */
export function IsNotBlank(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'isNotBlank',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && /\S/u.test(value),
          defaultMessage: buildMessage(() => 'must not be empty', options),
        },
      },
      options,
    ),
    ApiProperty({ minLength: 1 }),
  );
}

/** An absolute URL matching `^https?://` (scheme case-insensitive) with a host. Pair with `MaxChars(MAX_URL_CHARS)`. */
export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'isHttpUrl',
        validator: {
          validate: (value: unknown) => {
            if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return false;
            try {
              return new URL(value).hostname !== '';
            } catch {
              return false;
            }
          },
          defaultMessage: buildMessage(() => 'must be an http or https URL', options),
        },
      },
      options,
    ),
    ApiProperty({ format: 'uri', pattern: '^https?://' }),
  );
}

/** Standard base64 alphabet (`+/`), padding optional but consistent; no whitespace, no `data:` prefix, not empty. */
export function isBase64(value: string): boolean {
  const body = value.replace(/=+$/, '');
  const padding = value.length - body.length;
  if (!/^[A-Za-z0-9+/]+$/.test(body) || body.length % 4 === 1 || padding > 2) return false;
  return padding === 0 || value.length % 4 === 0;
}

export function IsBase64Data(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'isBase64Data',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && isBase64(value),
          defaultMessage: buildMessage(() => 'must be valid base64', options),
        },
      },
      options,
    ),
    ApiProperty({ format: 'byte' }),
  );
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

/** RFC 3339 date-time (OpenAPI `format: date-time`): date, time and zone, and a real calendar date. */
export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'isDateTime',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && DATE_TIME.test(value) && isISO8601(value, { strict: true }),
          defaultMessage: buildMessage(() => 'must be an ISO 8601 date-time such as 2025-05-19T00:51:44.816Z', options),
        },
      },
      options,
    ),
    ApiProperty({ format: 'date-time' }),
  );
}

function otherValue(args: ValidationArguments, other: string): unknown {
  return (args.object as Record<string, unknown>)[other];
}

/** Fails when `other` is also present; put it on the first of two alternatives: `url and data cannot both be given`. */
export function ExclusiveWith(other: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'exclusiveWith',
      constraints: [other],
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => args === undefined || otherValue(args, other) == null,
        defaultMessage: buildMessage(() => `and ${other} cannot both be given`, options),
      },
    },
    options,
  );
}

/** Fails when `other` is absent: `replyToSenderId requires replyTo`. */
export function RequiresField(other: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'requiresField',
      constraints: [other],
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => args === undefined || otherValue(args, other) != null,
        defaultMessage: buildMessage(() => `requires ${other}`, options),
      },
    },
    options,
  );
}

/*
 * Rules that span items of an array ("unique within the message", "required when there is more than one section")
 * must report on the item's own path (`buttons[1].id`), but class-validator shows a validator only the object that
 * holds the property. So the parent's @Transform gives every item a hidden link to its peers; class-transformer
 * runs it after the nested @Type conversion, so the items are already DTO instances.
 */
const PEERS = Symbol('peers');

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

export function peersOf(item: object): readonly object[] {
  return (item as { [PEERS]?: readonly object[] })[PEERS] ?? [item];
}

/** `groupsOf` picks the peer groups out of the array, e.g. the sections and all rows of all sections. */
export function LinkPeers(groupsOf: (items: object[]) => object[][] = (items) => [items]): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (!Array.isArray(value)) return value;
    const items: unknown[] = value;
    for (const group of groupsOf(items.filter(isObject))) {
      for (const item of group) Object.defineProperty(item, PEERS, { value: group, configurable: true, enumerable: false });
    }
    return items;
  });
}

/** Fails on an item whose value repeats that of an earlier peer, naming the value: `duplicates "yes"`. */
export function IsUniqueAmongPeers(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUniqueAmongPeers',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          if (args === undefined) return true;
          const peers = peersOf(args.object);
          const earlier = peers.slice(0, peers.indexOf(args.object));
          return !earlier.some((peer) => (peer as Record<string, unknown>)[args.property] === value);
        },
        defaultMessage: buildMessage((_each, args) => `duplicates ${JSON.stringify(args?.value)}`, options),
      },
    },
    options,
  );
}
