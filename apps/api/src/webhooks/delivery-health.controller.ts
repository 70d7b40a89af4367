import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { DeliveryHealthService } from './delivery-health.service';
import { DeliveryHealthDto, DeliveryStatesDto, DeliveryStatesQueryDto } from './dto/delivery-health.dto';

/** Webhook delivery health at a glance: the state of many deliveries in one call, and counts per hour. */
@ApiTags('Events')
@InstanceAuth()
@Controller('events/deliveries')
export class DeliveryHealthController {
  constructor(private readonly health: DeliveryHealthService) {}

  @Get()
  @ApiOperation({
    summary: 'The delivery state of every event received since a time',
    description:
      'Newest event first, at most 1000 (`truncated` says when more exist). For a log viewer that marks each event ' +
      'delivered or failed without asking `GET /events/{eventId}/deliveries` once per event.',
  })
  @ApiOkResponse({ type: DeliveryStatesDto })
  @ApiErrors(400)
  states(@CurrentScope() scope: InstanceScope, @Query() query: DeliveryStatesQueryDto): Promise<DeliveryStatesDto> {
    return this.health.states(scope, query);
  }

  @Get('hourly')
  @ApiOperation({
    summary: 'Deliveries and failures per hour over the last 24 hours',
    description: 'Counts the deliveries of events received in each hour (UTC) by their state now.',
  })
  @ApiOkResponse({ type: DeliveryHealthDto })
  hourly(@CurrentScope() scope: InstanceScope): Promise<DeliveryHealthDto> {
    return this.health.hourly(scope);
  }
}
