import { applyDecorators, Header, Injectable, UseInterceptors, type CallHandler, type NestInterceptor, type Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { map, type Observable } from 'rxjs';

/** Express would send a bare string as text; the contract wants a JSON string (`"mgw_..."`). */
@Injectable()
class JsonStringInterceptor implements NestInterceptor<string, string> {
  intercept(_context: unknown, next: CallHandler<string>): Observable<string> {
    return next.handle().pipe(map((value) => JSON.stringify(value)));
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * For a handler that returns its body already encoded as JSON (e.g. a cached page): sent as it is, documented as
 * `type`.
 */
export function EncodedJsonResponse(type: Type<unknown>): MethodDecorator {
  return applyDecorators(Header('Content-Type', JSON_CONTENT_TYPE), ApiOkResponse({ type }));
}

export function JsonStringResponse(description: string): MethodDecorator {
  return applyDecorators(
    Header('Content-Type', JSON_CONTENT_TYPE),
    UseInterceptors(JsonStringInterceptor),
    ApiOkResponse({ description, schema: { type: 'string', example: 'mgw_ik_…' } }),
  );
}
