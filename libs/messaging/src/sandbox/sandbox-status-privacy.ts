import { Injectable } from '@nestjs/common';
import { AppError, type CommandArgs, type StatusPrivacy } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';

const KIND = 'status-privacy';
const KEY = 'self';
const DEFAULT: StatusPrivacy = { type: 'contacts', list: [], isDefault: true };

/** Who may see the account's status posts, as set on the phone; until it is set, all contacts. */
@Injectable()
export class SandboxStatusPrivacy {
  constructor(
    private readonly world: SandboxWorldRepository,
    private readonly store: SandboxRepository,
  ) {}

  async current(instanceId: string): Promise<StatusPrivacy> {
    return (await this.world.record<StatusPrivacy>(instanceId, KIND, KEY)) ?? DEFAULT;
  }

  /** The phone changes the setting. */
  async set(instanceId: string, args: CommandArgs<'sandbox.statusPrivacy'>): Promise<{ id: string }> {
    // The API admits only people in the list and hands them over as JIDs.
    const list = args.list;
    if (args.type === 'contacts' && list.length > 0) throw AppError.validation('list must be empty when type is contacts');
    const setting: StatusPrivacy = { type: args.type, list: [...new Set(list)], isDefault: false };
    await this.world.putRecord(instanceId, KIND, KEY, setting);
    return { id: args.type };
  }

  /** The people a post reaches: the contacts the setting allows (a whitelist may also name people not saved). */
  async audience(instanceId: string): Promise<string[]> {
    const setting = await this.current(instanceId);
    if (setting.type === 'whitelist') return [...setting.list].sort();
    const contacts = (await this.store.contacts(instanceId)).map((contact) => contact.jid);
    const excluded = new Set(setting.type === 'blacklist' ? setting.list : []);
    return contacts.filter((jid) => !excluded.has(jid)).sort();
  }
}
