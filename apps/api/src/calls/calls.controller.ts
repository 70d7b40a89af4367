import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { RejectCallDto } from './dto/reject-call.dto';
import { CallsService, callIdParam } from './calls.service';

/** Incoming calls. */
@ApiTags('Calls')
@InstanceAuth()
@Controller('calls')
export class CallsController {
  constructor(private readonly calls: CallsService) {}

  /**
   * Declines a ringing call (`call_terminate`, reason `rejected`). 404 when no such call from that caller is ringing
   * (unknown, or already ended); 400 when it was already answered, since only a ringing call can be declined.
   */
  @Post(':callId/reject')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'call rejected' })
  @ApiErrors(404)
  reject(@CurrentScope() scope: InstanceScope, @Param('callId', callIdParam) callId: string, @Body() dto: RejectCallDto): Promise<void> {
    return this.calls.reject(scope, callId, dto);
  }
}
