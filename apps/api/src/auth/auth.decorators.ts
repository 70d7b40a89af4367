import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { AdminKeyGuard, CustomerKeyGuard, DashboardSessionGuard, InstanceKeyGuard } from './key-guards';

export const API_KEY_SCHEME = 'X-Api-Key';
/** The dashboard's session cookie; state-changing requests also need `X-CSRF-Token`. */
export const SESSION_SCHEME = 'DashboardSession';
export const INSTANCE_ID_SCHEME = 'X-Instance-Id';
export const ADMIN_KEY_SCHEME = 'X-Admin-Key';

/** The customer key (`/account/*`), or a dashboard session of one of the customer's users. */
export function CustomerAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(CustomerKeyGuard), ApiSecurity(API_KEY_SCHEME), ApiSecurity(SESSION_SCHEME), ApiErrors(401, 403, 429));
}

/** `X-Api-Key` (customer or instance key), or a dashboard session, together with `X-Instance-Id`. */
export function InstanceAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(InstanceKeyGuard),
    ApiSecurity({ [API_KEY_SCHEME]: [], [INSTANCE_ID_SCHEME]: [] }),
    ApiSecurity({ [SESSION_SCHEME]: [], [INSTANCE_ID_SCHEME]: [] }),
    ApiErrors(400, 401, 403, 429),
  );
}

/** A dashboard session only (its own routes: session, sign-out). */
export function SessionAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(DashboardSessionGuard), ApiSecurity(SESSION_SCHEME), ApiErrors(401, 403, 429));
}

/** The operator's key (`/admin/*`). */
export function AdminAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(AdminKeyGuard), ApiSecurity(ADMIN_KEY_SCHEME), ApiErrors(401, 429));
}
