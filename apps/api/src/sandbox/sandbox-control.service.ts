import { Injectable } from '@nestjs/common';
import { AppError, type CommandArgs, type CommandResult, type InstanceScope, type SandboxCommandName } from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { CommandClient } from '@app/redis';

/**
 * The way into a sandbox instance's simulated network: the one check that the instance is in test mode (real instances
 * answer 404 on every sandbox route), then the command to the worker that owns the instance.
 */
@Injectable()
export class SandboxControlService {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly commands: CommandClient,
  ) {}

  async requireSandbox(scope: InstanceScope): Promise<void> {
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance?.sandbox) throw new AppError('not_found');
  }

  async command<N extends SandboxCommandName>(
    scope: InstanceScope,
    name: N,
    args: CommandArgs<N>,
    deadlineMs?: number,
  ): Promise<CommandResult<N>> {
    await this.requireSandbox(scope);
    return this.commands.request(scope.instanceId, name, args, deadlineMs);
  }
}
