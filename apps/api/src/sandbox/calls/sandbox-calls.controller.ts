import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { CreatedIdDto } from '../../common/created-id.dto';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import { SandboxCallDto, SandboxCallEndDto } from './sandbox-calls.dto';

/** Test mode: contacts call this account; the phone answers or the call ends. Real instances answer 404. */
@SandboxRoutes()
export class SandboxCallsController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /** A contact calls this account (`call_offer`); the id names the call for accept and end. */
  @Post('calls')
  @ApiCreatedResponse({ type: CreatedIdDto })
  offerCall(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxCallDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.callOffer', { ...dto, video: dto.video ?? false });
  }

  /** The phone answers a ringing call (`call_accept`). */
  @Post('calls/:id/accept')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'call accepted' })
  async acceptCall(@CurrentScope() scope: InstanceScope, @Param('id') id: string): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.callAccept', { id });
  }

  /** The call ends, hung up or declined (`call_terminate`). */
  @Post('calls/:id/end')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'call ended' })
  async endCall(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxCallEndDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.callEnd', { id, reason: dto.reason });
  }
}
