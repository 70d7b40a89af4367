import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { DeliveriesService } from './deliveries.service';
import { BulkRedeliveryDto, BulkRedeliveryRequestDto, DeliveryReportDto, RedeliveryDto } from './dto/delivery-report.dto';

/** Webhook deliveries of the instance's events: every attempt, and delivering an event again. */
@ApiTags('Events')
@InstanceAuth()
@Controller('events')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Post('redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Delivers every failed (or pending) delivery since a time again',
    description:
      'Bulk recovery after an outage of your receiver: each delivery of this instance in `state` (`failed`: its retries ran ' +
      'out; `pending`: waiting for its next attempt) whose event was received at or after `since` is due at once, oldest ' +
      'event first, with its retry schedule restarted and the same `webhook-id`. Answers with how many were restarted.',
  })
  @ApiAcceptedResponse({ type: BulkRedeliveryDto })
  @ApiErrors(400, 409)
  redeliverSince(@CurrentScope() scope: InstanceScope, @Body() body: BulkRedeliveryRequestDto): Promise<BulkRedeliveryDto> {
    return this.deliveries.redeliverSince(scope, body);
  }

  /** The event's webhook delivery (its state and every attempt with the receiver's answer), and its broker sink delivery. */
  @Get(':eventId/deliveries')
  @ApiOkResponse({ type: DeliveryReportDto })
  @ApiErrors(404)
  report(@CurrentScope() scope: InstanceScope, @Param('eventId') eventId: string): Promise<DeliveryReportDto> {
    return this.deliveries.report(scope, eventId);
  }

  /**
   * Publishes the event to the instance's message broker sink again (same message id), restarting the retry schedule;
   * the worker owning the instance publishes it within a few seconds, in seq order with the instance's other pending events.
   */
  @Post(':eventId/sink/redeliver')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: RedeliveryDto })
  @ApiErrors(404, 409)
  redeliverToSink(@CurrentScope() scope: InstanceScope, @Param('eventId') eventId: string): Promise<RedeliveryDto> {
    return this.deliveries.redeliverToSink(scope, eventId);
  }

  /** Delivers the event to the current webhook URL again (same `webhook-id`), restarting the retry schedule. */
  @Post(':eventId/redeliver')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: RedeliveryDto })
  @ApiErrors(404, 409)
  redeliver(@CurrentScope() scope: InstanceScope, @Param('eventId') eventId: string): Promise<RedeliveryDto> {
    return this.deliveries.redeliver(scope, eventId);
  }
}
