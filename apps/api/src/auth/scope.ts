import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CustomerScope, InstanceScope } from '@app/contracts';
import type { ActiveSession } from './dashboard-sessions';

export type ScopedRequest = Request & { scope?: CustomerScope | InstanceScope; dashboardSession?: ActiveSession };

/** The frozen scope a guard resolved for this request. */
export const CurrentScope = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const scope = context.switchToHttp().getRequest<ScopedRequest>().scope;
  if (!scope) throw new Error('CurrentScope used on a route without an auth guard');
  return scope;
});

/** The dashboard session a `DashboardSessionGuard` (or a key guard given a cookie) resolved for this request. */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const session = context.switchToHttp().getRequest<ScopedRequest>().dashboardSession;
  if (!session) throw new Error('CurrentSession used on a route without a session guard');
  return session;
});
