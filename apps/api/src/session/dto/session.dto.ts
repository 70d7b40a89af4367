import { ApiProperty } from '@nestjs/swagger';
import { PROXY_FAILURE_REASONS } from '@app/security';

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

export class SendingPauseDto {
  /** paused: sends wait for the probe time; probing: one send is out to learn whether the network takes them again. */
  @ApiProperty({ enum: ['paused', 'probing'] })
  state!: 'paused' | 'probing';
  /** The error-ack code of the refusal that paused them (463 restricted account, 479 invalid stanza). */
  code!: number;
  /** Refusals within the window when they paused. */
  refusals!: number;
  /** When one send probes (ISO 8601). */
  probeAt!: string;
}

export class SessionStatusDto {
  /** The link to the network is up right now. */
  isConnected!: boolean;
  /** A device is paired (it may be reconnecting). */
  isLoggedIn!: boolean;
  /** The paired device; empty while unpaired. */
  deviceId!: string;
  /**
   * Only while the instance's outbound proxy keeps it down: `proxy_unreachable`, `proxy_auth_failed` or `proxy_refused`
   * (see the `instance_connection` event and `statusReason` on the instance detail).
   */
  @ApiProperty({ enum: PROXY_FAILURE_REASONS, required: false })
  statusReason?: string;
  /**
   * Only while the instance's sends are paused because the network kept refusing them as from a restricted account
   * (see the `instance_sending` event): accepted messages wait, in order, until a probe send is taken.
   */
  sending?: SendingPauseDto;
}
