import { Injectable } from '@nestjs/common';
import type { CallOperations } from '@app/contracts';
import { UNSEEN, refused } from './network-errors';
import type { BaileysOperationHandlers } from './operation-handlers';

/**
 * Declining a call: the network ends it for the caller and reports the end through the socket's `call` event. The
 * reject goes to the caller as the offer named them (device and LID included); the `callerId` the client echoes is
 * the phone number the event showed, used only for a call this instance did not see offered.
 */
@Injectable()
export class BaileysCallOperations {
  readonly handlers: BaileysOperationHandlers<CallOperations> = {
    'calls.reject': async ({ socket, calls }, { callId, callerId }) => {
      await refused(socket.rejectCall(callId, calls?.from(callId) ?? callerId), UNSEEN);
      return {};
    },
  };
}
