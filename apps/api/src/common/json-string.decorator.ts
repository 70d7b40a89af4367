import { applyDecorators, Header, Injectable, UseInterceptors, type CallHandler, type NestInterceptor } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { map, type Observable } from 'rxjs';

/** Express would send a bare string as text; the contract wants a JSON string (`"mgw_..."`). */
@Injectable()
class JsonStringInterceptor implements NestInterceptor<string, string> {
  intercept(_context: unknown, next: CallHandler<string>): Observable<string> {
    return next.handle().pipe(map((value) => JSON.stringify(value)));
  }
}

export function JsonStringResponse(description: string): MethodDecorator {
  return applyDecorators(
    Header('Content-Type', 'application/json; charset=utf-8'),
    UseInterceptors(JsonStringInterceptor),
    ApiOkResponse({ description, schema: { type: 'string', example: 'mgw_ik_…' } }),
  );
}
