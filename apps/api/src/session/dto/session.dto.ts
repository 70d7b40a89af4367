import { ApiProperty } from '@nestjs/swagger';

export class QrCodeDto {
  /** The raw QR payload, for clients that render the QR code themselves. */
  code!: string;
}

export class PairCodeDto {
  /** The code to type on the phone under Linked devices → Link with phone number, e.g. `ABCD-EFGH`. */
  code!: string;
}

export class HistoryFlushStartedDto {
  @ApiProperty({ example: 'ok', description: 'the flush started; chats follow as message_history_sync events' })
  status!: 'ok';
}

export class SessionStatusDto {
  /** The link to the network is up right now. */
  isConnected!: boolean;
  /** A device is paired (it may be reconnecting). */
  isLoggedIn!: boolean;
  /** The paired device; empty while unpaired. */
  deviceId!: string;
}
