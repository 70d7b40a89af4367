import type { Provider } from '@nestjs/common';
import { BaileysInbound } from './inbound';
import { BaileysOperations } from './operations';
import { BaileysSender } from './outbound';
import { BAILEYS_INBOUND, BAILEYS_OPERATIONS, BAILEYS_SENDER } from './session/baileys-tokens';

/** The driver's three ports, bound to their implementations (the driver itself only sees the tokens). */
export const BAILEYS_PORTS: Provider[] = [
  BaileysInbound,
  BaileysSender,
  { provide: BAILEYS_INBOUND, useExisting: BaileysInbound },
  { provide: BAILEYS_SENDER, useExisting: BaileysSender },
  { provide: BAILEYS_OPERATIONS, useExisting: BaileysOperations },
];
