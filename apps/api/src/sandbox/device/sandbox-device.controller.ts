import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { ApiErrors } from '../../common/api-errors.decorator';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import { SandboxConnectionDto, SandboxPairDto, SandboxPairedDto } from './sandbox-device.dto';

/** Test mode: the phone pairs the instance, takes its link offline and back, and logs it out. Real instances answer 404. */
@SandboxRoutes()
export class SandboxDeviceController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /**
   * As if the phone scanned the QR code: the instance becomes connected and `logged_in` is emitted (then
   * `initial_sync_finished` when history sync is on). With `error` the network refuses the device: `login_error`.
   */
  @Post('pair')
  @HttpCode(200)
  @ApiOkResponse({ type: SandboxPairedDto })
  pair(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxPairDto): Promise<SandboxPairedDto> {
    return this.sandbox.command(scope, 'sandbox.pair', {
      ...(dto.phone ? { phone: dto.phone } : {}),
      ...(dto.error !== undefined ? { error: dto.error } : {}),
    });
  }

  /** Takes the phone's link offline, or brings it back online. */
  @Post('connection')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'link state changed' })
  async connection(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxConnectionDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.connection', { state: dto.state });
  }

  /** Logs the instance out from the phone's side (`logged_out`, reason `user_logged_out`). */
  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'logged out from the phone' })
  @ApiErrors(403)
  async logout(@CurrentScope() scope: InstanceScope): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.logout', {});
  }
}
