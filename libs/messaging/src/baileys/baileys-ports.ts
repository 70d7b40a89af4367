import type { Provider } from '@nestjs/common';
import { AppError } from '@app/contracts';
import type { BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort } from './baileys-context';
import { BAILEYS_INBOUND, BAILEYS_OPERATIONS, BAILEYS_SENDER } from './session/baileys-tokens';

/**
 * The bindings of the driver's three ports. Inbound mapping, outbound sends and operations are built separately and
 * are not part of this build yet, so each port here refuses, visibly, instead of pretending to work:
 * - inbound: every batch is rejected, and the session logs "inbound events not processed" with the event names;
 * - sender and operations: 503 `instance_unavailable` (a send stays pending and is retried later).
 *
 * When the implementations are merged, bind each token to its class instead, e.g.
 * `{ provide: BAILEYS_INBOUND, useExisting: BaileysInbound }`, and add the classes (and whatever they inject) to
 * BaileysModule's providers. Nothing else changes: the driver only ever sees the tokens.
 */
class InboundNotInThisBuild implements BaileysInboundPort {
  process(): Promise<void> {
    return Promise.reject(new Error('inbound mapping for the real network is not part of this build'));
  }
}

class SenderNotInThisBuild implements BaileysSenderPort {
  send(): Promise<never> {
    return Promise.reject(new AppError('instance_unavailable', 'sending on the real network is not part of this build'));
  }
}

class OperationsNotInThisBuild implements BaileysOperationsPort {
  perform(): Promise<never> {
    return Promise.reject(new AppError('instance_unavailable', 'operations on the real network are not part of this build'));
  }
}

export const BAILEYS_PORTS: Provider[] = [
  { provide: BAILEYS_INBOUND, useClass: InboundNotInThisBuild },
  { provide: BAILEYS_SENDER, useClass: SenderNotInThisBuild },
  { provide: BAILEYS_OPERATIONS, useClass: OperationsNotInThisBuild },
];
