import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { SandboxDriver, type NetworkDriver } from '@app/messaging';

/** Instances choose their network by their sandbox flag. */
@Injectable()
export class DriverRegistry {
  constructor(private readonly sandbox: SandboxDriver) {}

  for(instance: { sandbox: boolean }): NetworkDriver {
    if (instance.sandbox) return this.sandbox;
    // The real-network driver is not part of this build yet; such instances cannot connect.
    throw new AppError('instance_unavailable');
  }
}
