import { Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { pairingPhoneParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { HistoryFlushStartedDto, PairCodeDto, QrCodeDto, SessionStatusDto } from './dto/session.dto';
import { SessionService } from './session.service';

/** Pairing and the link to the network. */
@ApiTags('Session')
@InstanceAuth()
@Controller('session')
export class SessionController {
  constructor(private readonly session: SessionService) {}

  /** The current pairing QR code as text; it changes about every 20 seconds. */
  @Get('qr/text')
  @ApiOkResponse({ type: QrCodeDto })
  @ApiErrors(503)
  qrText(@CurrentScope() scope: InstanceScope): Promise<QrCodeDto> {
    return this.session.qrText(scope);
  }

  /** The current pairing QR code as a PNG image. */
  @Get('qr')
  @ApiProduces('image/png')
  @ApiOkResponse({ description: 'PNG image', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors(503)
  async qrImage(@CurrentScope() scope: InstanceScope): Promise<StreamableFile> {
    return new StreamableFile(await this.session.qrImage(scope), { type: 'image/png' });
  }

  /** Pair with a phone number instead of a QR code; type the returned code on the phone. */
  @Get('pair-code/:phone')
  @ApiOkResponse({ type: PairCodeDto })
  @ApiErrors(503)
  pairCode(@CurrentScope() scope: InstanceScope, @Param('phone', pairingPhoneParam()) phone: string): Promise<PairCodeDto> {
    return this.session.pairCode(scope, phone);
  }

  @Get('status')
  @ApiOkResponse({ type: SessionStatusDto })
  status(@CurrentScope() scope: InstanceScope): Promise<SessionStatusDto> {
    return this.session.status(scope);
  }

  /** Unlinks the device; the instance becomes unpaired. */
  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'logged out' })
  @ApiErrors(403, 503)
  logout(@CurrentScope() scope: InstanceScope): Promise<void> {
    return this.session.logout(scope);
  }

  /**
   * Delivers the chat history the network holds as `message_history_sync` events, one per chat (at most 500
   * messages each), when the instance's effective `historySync` setting is on; otherwise accepted and nothing is
   * sent. Needs a live link.
   */
  @Post('flush-history')
  @HttpCode(202)
  @RequiresConnection()
  @ApiAcceptedResponse({ description: 'history delivery started', type: HistoryFlushStartedDto })
  flushHistory(@CurrentScope() scope: InstanceScope): Promise<HistoryFlushStartedDto> {
    return this.session.flushHistory(scope);
  }
}
