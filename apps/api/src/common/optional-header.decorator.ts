import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, type ApiHeaderOptions } from '@nestjs/swagger';
import type { Request } from 'express';

export type OptionalHeaderDoc = Pick<ApiHeaderOptions, 'description' | 'schema' | 'example'> & { name: string };

/** Documents the header on the method the parameter belongs to, exactly once and optional. */
function documentHeader(doc: OptionalHeaderDoc): ParameterDecorator {
  return (target, key) => {
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) ApiHeader({ ...doc, required: false })(target, key, descriptor);
  };
}

const headerValue = (name: string, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<Request>().headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * An optional request header's value (`undefined` when absent), declared once in OpenAPI under its canonical name.
 * Use it instead of Nest's `@Headers(name)`: @nestjs/swagger documents every `@Headers(name)` parameter as a *required*
 * header under the name as written, so Swagger UI refused to send without it and generated clients demanded it.
 */
export function OptionalHeader(doc: OptionalHeaderDoc): ParameterDecorator {
  return createParamDecorator(headerValue, [documentHeader(doc)])(doc.name);
}
