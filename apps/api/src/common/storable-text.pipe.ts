import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { AppError } from '@app/contracts';

// NUL is exactly the control character these expressions exist to find.
/* eslint-disable no-control-regex */
/** A cheap first look: any NUL or surrogate code unit at all. Most strings have none. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
/** What PostgreSQL refuses: NUL (22021 in text, 22P05 in jsonb) and surrogates that are not part of a pair. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */

export function isStorable(text: string): boolean {
  return !SUSPECT.test(text) || !UNSTORABLE.test(text);
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  // A property name that is itself unstorable is named with the replacement character, so the detail stays readable.
  const readable = isStorable(key) ? key : key.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
  return parent ? `${parent}.${readable}` : readable;
}

/**
 * The field path of the first string (value or property name) PostgreSQL cannot store, or undefined. Iterative, so
 * any depth is safe (bodies are also refused beyond MAX_BODY_DEPTH before they get here).
 */
export function findUnstorableText(value: unknown, rootPath = ''): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: rootPath }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorable(current)) return path;
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) pending.push({ value: current[index], path: childPath(path, index) });
    } else if (typeof current === 'object' && current !== null) {
      const entries: [string, unknown][] = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index];
        if (!isStorable(key)) return childPath(path, key);
        pending.push({ value: child, path: childPath(path, key) });
      }
    }
  }
  return undefined;
}

/**
 * Checks every string of every body, query and path parameter once, at the edge, before validation: text with a NUL
 * character or a lone UTF-16 surrogate cannot be stored in PostgreSQL, so it is a client error naming the field, never
 * a 500 from deep inside a route.
 */
export class StorableTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' && metadata.type !== 'query' && metadata.type !== 'param') return value;
    const path = findUnstorableText(value, metadata.data ?? '');
    if (path !== undefined) {
      throw AppError.validation(`${path || metadata.type} contains characters that cannot be stored`);
    }
    return value;
  }
}
