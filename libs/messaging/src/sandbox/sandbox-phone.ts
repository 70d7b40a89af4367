import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { SandboxRepository } from '@app/database';
import { randomPhone } from './codes';
import { SandboxLinks } from './sandbox-links';

/** The account owner's phone: it pairs the instance as a linked device, goes offline and back, and logs it out. */
@Injectable()
export class SandboxPhone {
  constructor(
    private readonly store: SandboxRepository,
    private readonly links: SandboxLinks,
  ) {}

  async isPaired(instanceId: string): Promise<boolean> {
    return Boolean((await this.store.device(instanceId)).deviceId);
  }

  /**
   * The phone scans the QR code (or enters the pair code) the instance's session is offering. With `error` the
   * network refuses the device: the instance stays unpaired and `login_error` names the device that tried.
   */
  async pair(instanceId: string, phone?: string, error?: string): Promise<{ deviceId: string }> {
    const device = await this.store.device(instanceId);
    if (device.deviceId) throw new AppError('device_already_paired');
    const session = this.links.find(instanceId);
    if (!session?.isPairing) throw new AppError('instance_unavailable');
    const number = phone ?? session.pendingPairPhone ?? randomPhone();
    const deviceId = `${number}:${randomInt(2, 60)}@s.whatsapp.net`;
    if (error !== undefined) {
      session.pairingFailed(deviceId, error);
      return { deviceId };
    }
    await this.store.pair(instanceId, number, deviceId);
    await session.completePairing(deviceId);
    return { deviceId };
  }

  async setLink(instanceId: string, online: boolean): Promise<{ online: boolean }> {
    await this.store.setOnline(instanceId, online);
    if (!online) this.links.find(instanceId)?.linkDropped();
    return { online };
  }

  async logoutFromPhone(instanceId: string): Promise<{ loggedOut: boolean }> {
    const device = await this.store.device(instanceId);
    if (!device.deviceId) throw new AppError('device_not_paired');
    await this.store.unpair(instanceId);
    this.links.find(instanceId)?.loggedOutFromPhone();
    return { loggedOut: true };
  }
}
