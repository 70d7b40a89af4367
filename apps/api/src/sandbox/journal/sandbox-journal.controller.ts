import { Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import { InboxEntryDto, NetworkOperationDto, OutboxEntryDto } from './sandbox-journal.dto';
import { SandboxJournalService } from './sandbox-journal.service';

/** Test mode: what the simulated network holds for the instance, read back. Real instances answer 404. */
@SandboxRoutes()
export class SandboxJournalController {
  constructor(private readonly journal: SandboxJournalService) {}

  /** What contacts sent this instance, in order, as the phone shows it now. */
  @Get('inbox')
  @ApiOkResponse({ type: InboxEntryDto, isArray: true })
  inbox(@CurrentScope() scope: InstanceScope): Promise<InboxEntryDto[]> {
    return this.journal.inbox(scope);
  }

  /** What the simulated network received from this instance, in order. */
  @Get('outbox')
  @ApiOkResponse({ type: OutboxEntryDto, isArray: true })
  outbox(@CurrentScope() scope: InstanceScope): Promise<OutboxEntryDto[]> {
    return this.journal.outbox(scope);
  }

  /** The operations (chat settings, groups, contacts, profile, ...) the simulated network carried out for this instance, in order. */
  @Get('operations')
  @ApiOkResponse({ type: NetworkOperationDto, isArray: true })
  operations(@CurrentScope() scope: InstanceScope): Promise<NetworkOperationDto[]> {
    return this.journal.operations(scope);
  }
}
