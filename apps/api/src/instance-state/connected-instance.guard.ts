import { applyDecorators, Injectable, SetMetadata, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, isPaired, type InstanceScope } from '@app/contracts';
import type { ScopedRequest } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { LiveStatusReader } from './live-status.reader';

const UNPAIRED_STATUS = 'gate:unpaired-status';

/**
 * The instance gate every network endpoint uses: never paired or logged out → `device not paired`
 * (403, or 409 where the contract says so); paired but not connected right now → 503.
 */
@Injectable()
export class ConnectedInstanceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly statuses: LiveStatusReader,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scope = context.switchToHttp().getRequest<ScopedRequest>().scope as InstanceScope;
    const { status } = await this.statuses.read(scope);
    if (status === 'connected') return true;
    if (isPaired(status)) throw new AppError('instance_unavailable');
    const unpaired = this.reflector.get<403 | 409>(UNPAIRED_STATUS, context.getHandler()) ?? 403;
    throw new AppError(unpaired === 409 ? 'device_not_paired_conflict' : 'device_not_paired');
  }
}

/** Put after the instance auth: the endpoint needs a paired instance whose link is up. */
export function RequiresConnection(options: { whenUnpaired: 403 | 409 } = { whenUnpaired: 403 }): MethodDecorator {
  return applyDecorators(
    SetMetadata(UNPAIRED_STATUS, options.whenUnpaired),
    UseGuards(ConnectedInstanceGuard),
    ApiErrors(options.whenUnpaired, 503),
  );
}
