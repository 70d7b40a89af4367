import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import type { RejectCallDto } from './dto/reject-call.dto';

/** Call ids from the network are hex strings (32 digits today); anything else cannot name a call. */
const CALL_ID = /^[A-Fa-f0-9]{8,64}$/;

export const callIdParam: PipeTransform<string, string> = {
  transform(value: string): string {
    if (!CALL_ID.test(value)) throw AppError.validation('callId must be the hexadecimal id of a call event');
    return value.toUpperCase();
  },
};

/** Answers incoming calls through the instance's session. */
@Injectable()
export class CallsService {
  constructor(private readonly commands: CommandClient) {}

  async reject(scope: InstanceScope, callId: string, dto: RejectCallDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'calls.reject', { callId, callerId: dto.callerId });
  }
}
