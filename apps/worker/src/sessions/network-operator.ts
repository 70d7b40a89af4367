import { Injectable } from '@nestjs/common';
import { AppError, type OperationArgs, type OperationName, type OperationResult } from '@app/contracts';
import { OperationEffects } from '../store/operation-effects';
import { InstanceSessions } from './instance-sessions';

/**
 * Carries out a network operation over the instance's live link. It answers only once the operation's events are
 * in the store and the event log, so the caller's next read already shows the change.
 */
@Injectable()
export class NetworkOperator {
  constructor(
    private readonly sessions: InstanceSessions,
    private readonly effects: OperationEffects,
  ) {}

  async perform<N extends OperationName>(instanceId: string, name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    const session = await this.sessions.liveSession(instanceId);
    if (!session) throw new AppError('instance_unavailable');
    try {
      const result = await session.perform(name, args);
      await this.effects.apply(instanceId, name, args, result);
      return result;
    } finally {
      await this.sessions.settled(instanceId);
    }
  }
}
