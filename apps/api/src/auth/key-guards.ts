import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AppError, type CustomerScope, type InstanceScope } from '@app/contracts';
import { Authenticator, header } from './authenticator';
import type { ScopedRequest } from './scope';

/** `/account/*`: the customer key only. */
@Injectable()
export class CustomerKeyGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const { principal } = await this.auth.authenticate(request);
    // A valid key used on the wrong plane is a client mistake, not a guess: refuse it without counting a failure.
    if (principal.kind !== 'customer') throw new AppError('unauthorized');
    request.scope = Object.freeze<CustomerScope>({ customerId: principal.customerId });
    return true;
  }
}

/** Instance endpoints: `X-Instance-Id` plus the customer's key or that instance's own key. */
@Injectable()
export class InstanceKeyGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const { principal, viaSession } = await this.auth.authenticate(request);
    const instanceId = header(request, 'x-instance-id');
    if (!instanceId) throw new AppError('missing_instance_header');
    if (!(await this.auth.mayUseInstance(principal, instanceId))) throw new AppError('unauthorized');
    request.scope = Object.freeze<InstanceScope>({
      customerId: principal.customerId,
      instanceId,
      via: principal.kind === 'instance' ? 'instance_key' : viaSession ? 'dashboard_session' : 'customer_key',
    });
    return true;
  }
}

/** Dashboard-only routes (`/auth/session`, sign-out): a session cookie, never a key. */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const session = await this.auth.authenticateSession(request);
    request.scope = Object.freeze<CustomerScope>({ customerId: session.record.customerId });
    return true;
  }
}

/** `/admin/*`: the operator key from configuration. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly auth: Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.authenticateAdmin(context.switchToHttp().getRequest<ScopedRequest>());
    return true;
  }
}
