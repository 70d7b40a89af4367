import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import {
  OutboxEntryDto,
  SandboxConnectionDto,
  SandboxContactDto,
  SandboxGroupDto,
  SandboxInboundDto,
  SandboxPairDto,
  SandboxPairedDto,
  SandboxReceiptDto,
} from './dto/sandbox.dto';
import { SandboxService } from './sandbox.service';

/** Test mode: plays the phone and the contacts of a sandbox instance. Real instances answer 404. */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(404, 503)
@Controller('sandbox')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  /** As if the phone scanned the QR code: the instance becomes connected and `logged_in` is emitted. */
  @Post('pair')
  @HttpCode(200)
  @ApiOkResponse({ type: SandboxPairedDto })
  pair(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxPairDto): Promise<SandboxPairedDto> {
    return this.sandbox.pair(scope, dto);
  }

  /** Takes the phone's link offline, or brings it back online. */
  @Post('connection')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'link state changed' })
  connection(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxConnectionDto): Promise<void> {
    return this.sandbox.connection(scope, dto);
  }

  /** Logs the instance out from the phone's side (`logged_out`). */
  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'logged out from the phone' })
  @ApiErrors(403)
  logout(@CurrentScope() scope: InstanceScope): Promise<void> {
    return this.sandbox.logout(scope);
  }

  /** Adds or updates a contact in the simulated address book. */
  @Post('contacts')
  @ApiCreatedResponse({ type: CreatedIdDto })
  contact(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxContactDto): Promise<CreatedIdDto> {
    return this.sandbox.contact(scope, dto);
  }

  /** Creates a group or community the instance belongs to, with chosen admins. */
  @Post('groups')
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(403)
  group(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxGroupDto): Promise<CreatedIdDto> {
    return this.sandbox.group(scope, dto);
  }

  /** A contact sends a message or taps a reply button / list row of a message this instance sent. */
  @Post('inbound')
  @ApiCreatedResponse({ type: CreatedIdDto })
  inbound(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxInboundDto): Promise<CreatedIdDto> {
    return this.sandbox.inbound(scope, dto);
  }

  /** The recipient's phone reports a sent message delivered or read. */
  @Post('receipts')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'receipt produced' })
  receipt(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxReceiptDto): Promise<void> {
    return this.sandbox.receipt(scope, dto);
  }

  /** What the simulated network received from this instance, in order. */
  @Get('outbox')
  @ApiOkResponse({ type: OutboxEntryDto, isArray: true })
  outbox(@CurrentScope() scope: InstanceScope): Promise<OutboxEntryDto[]> {
    return this.sandbox.outbox(scope);
  }
}
