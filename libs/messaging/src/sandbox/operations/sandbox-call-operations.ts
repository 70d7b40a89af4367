import { Injectable } from '@nestjs/common';
import type { CallOperations } from '@app/contracts';
import { SandboxHappenings } from '../sandbox-happenings';
import type { OperationHandlers } from './operation-handlers';

/** Calls answered from this device: declining one ends it on the caller's side too. */
@Injectable()
export class SandboxCallOperations {
  constructor(private readonly happenings: SandboxHappenings) {}

  readonly handlers: OperationHandlers<CallOperations> = {
    'calls.reject': async ({ instanceId }, { callId, callerId }) => {
      await this.happenings.rejectCall(instanceId, callId, callerId);
      return {};
    },
  };
}
