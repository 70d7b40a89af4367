import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { AdminKeyGuard, CustomerKeyGuard, InstanceKeyGuard } from './key-guards';

export const API_KEY_SCHEME = 'X-Api-Key';
export const INSTANCE_ID_SCHEME = 'X-Instance-Id';
export const ADMIN_KEY_SCHEME = 'X-Admin-Key';

/** Customer key only (`/account/*`). */
export function CustomerAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(CustomerKeyGuard), ApiSecurity(API_KEY_SCHEME), ApiErrors(401, 429));
}

/** `X-Api-Key` (customer or instance key) together with `X-Instance-Id`. */
export function InstanceAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(InstanceKeyGuard),
    ApiSecurity({ [API_KEY_SCHEME]: [], [INSTANCE_ID_SCHEME]: [] }),
    ApiErrors(400, 401, 429),
  );
}

/** The operator's key (`/admin/*`). */
export function AdminAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(AdminKeyGuard), ApiSecurity(ADMIN_KEY_SCHEME), ApiErrors(401, 429));
}
