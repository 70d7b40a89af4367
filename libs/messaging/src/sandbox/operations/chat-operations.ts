import { Injectable } from '@nestjs/common';
import type { ChatOperations } from '@app/contracts';
import { SandboxHappenings } from '../sandbox-happenings';
import type { OperationHandlers } from './operation-handlers';

/** Chat settings changed from a linked device reach the phone and every other device, as the phone's own would. */
@Injectable()
export class SandboxChatOperations {
  constructor(private readonly happenings: SandboxHappenings) {}

  readonly handlers: OperationHandlers<ChatOperations> = {
    'chats.archive': async ({ instanceId }, { chatId, archived }) => {
      await this.happenings.chatSetting(instanceId, { chatId, settingType: 'archive', enabled: archived });
      return {};
    },
  };
}
