import { Injectable } from '@nestjs/common';
import { toBuffer } from 'qrcode';
import { AppError, isPaired, type InstanceScope, type SendingPause } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { LiveStatusReader } from '../instance-state/live-status.reader';
import type { HistoryFlushStartedDto, PairCodeDto, QrCodeDto, SendingPauseDto, SessionStatusDto } from './dto/session.dto';

@Injectable()
export class SessionService {
  constructor(
    private readonly commands: CommandClient,
    private readonly statuses: LiveStatusReader,
  ) {}

  async qrText(scope: InstanceScope): Promise<QrCodeDto> {
    await this.assertNotPaired(scope);
    return this.commands.request(scope.instanceId, 'session.qr', {});
  }

  async qrImage(scope: InstanceScope): Promise<Buffer> {
    const { code } = await this.qrText(scope);
    return toBuffer(code, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  }

  /** `phone` arrives as its digits (see `pairingPhoneParam`). */
  async pairCode(scope: InstanceScope, phone: string): Promise<PairCodeDto> {
    await this.assertNotPaired(scope);
    return this.commands.request(scope.instanceId, 'session.pairCode', { phone });
  }

  async status(scope: InstanceScope): Promise<SessionStatusDto> {
    const [live, pause] = await Promise.all([this.statuses.read(scope), this.statuses.readSendingPause(scope.instanceId)]);
    return {
      isConnected: live.status === 'connected',
      isLoggedIn: isPaired(live.status),
      deviceId: live.deviceId ?? '',
      ...(live.reason ? { statusReason: live.reason } : {}),
      ...(pause ? { sending: sendingPauseView(pause) } : {}),
    };
  }

  async logout(scope: InstanceScope): Promise<void> {
    const live = await this.statuses.read(scope);
    if (!isPaired(live.status)) throw new AppError('device_not_paired');
    await this.commands.request(scope.instanceId, 'session.logout', {});
  }

  async flushHistory(scope: InstanceScope): Promise<HistoryFlushStartedDto> {
    await this.commands.request(scope.instanceId, 'session.flushHistory', {});
    return { status: 'ok' };
  }

  async restart(scope: InstanceScope): Promise<void> {
    await this.commands.request(scope.instanceId, 'session.restart', {});
  }

  private async assertNotPaired(scope: InstanceScope): Promise<void> {
    if (isPaired((await this.statuses.read(scope)).status)) throw new AppError('device_already_paired');
  }
}

function sendingPauseView(pause: SendingPause): SendingPauseDto {
  return {
    state: Date.now() < pause.probeAt ? 'paused' : 'probing',
    code: pause.code,
    refusals: pause.refusals,
    probeAt: new Date(pause.probeAt).toISOString(),
  };
}
