import { Module } from '@nestjs/common';
import { SandboxCallsController } from './calls/sandbox-calls.controller';
import { SandboxChannelsController } from './channels/sandbox-channels.controller';
import { SandboxDeviceController } from './device/sandbox-device.controller';
import { SandboxGroupsController } from './groups/sandbox-groups.controller';
import { SandboxJournalController } from './journal/sandbox-journal.controller';
import { SandboxJournalService } from './journal/sandbox-journal.service';
import { SandboxMessagesController } from './messages/sandbox-messages.controller';
import { SandboxPeopleController } from './people/sandbox-people.controller';
import { SandboxControlService } from './sandbox-control.service';

@Module({
  controllers: [
    SandboxDeviceController,
    SandboxPeopleController,
    SandboxMessagesController,
    SandboxGroupsController,
    SandboxChannelsController,
    SandboxCallsController,
    SandboxJournalController,
  ],
  providers: [SandboxControlService, SandboxJournalService],
})
export class SandboxModule {}
