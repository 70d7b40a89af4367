import { Injectable } from '@nestjs/common';
import type { OperationArgs, OperationName, OperationResult } from '@app/contracts';

type Effect<N extends OperationName> = (instanceId: string, args: OperationArgs<N>, result: OperationResult<N>) => Promise<void>;

/**
 * What an operation's answer teaches the store beyond the events it caused (e.g. group metadata the network
 * returned). Resource groups register theirs; operations without one change the store through their events only.
 */
@Injectable()
export class OperationEffects {
  private readonly effects = new Map<OperationName, Effect<OperationName>>();

  register<N extends OperationName>(name: N, effect: Effect<N>): void {
    this.effects.set(name, effect as unknown as Effect<OperationName>);
  }

  async apply<N extends OperationName>(instanceId: string, name: N, args: OperationArgs<N>, result: OperationResult<N>): Promise<void> {
    await this.effects.get(name)?.(instanceId, args, result);
  }
}
