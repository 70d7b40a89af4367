import { Injectable } from '@nestjs/common';
import type { CallOperations } from '@app/contracts';
import { UNSEEN, refused } from './network-errors';
import type { BaileysOperationHandlers } from './operation-handlers';

/** Declining a call: the network ends it for the caller and reports the end through the socket's `call` event. */
@Injectable()
export class BaileysCallOperations {
  readonly handlers: BaileysOperationHandlers<CallOperations> = {
    'calls.reject': async ({ socket }, { callId, callerId }) => {
      await refused(socket.rejectCall(callId, callerId), UNSEEN);
      return {};
    },
  };
}
