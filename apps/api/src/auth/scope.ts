import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CustomerScope, InstanceScope } from '@app/contracts';

export type ScopedRequest = Request & { scope?: CustomerScope | InstanceScope };

/** The frozen scope a guard resolved for this request. */
export const CurrentScope = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const scope = context.switchToHttp().getRequest<ScopedRequest>().scope;
  if (!scope) throw new Error('CurrentScope used on a route without an auth guard');
  return scope;
});
