import { Injectable } from '@nestjs/common';
import { AppError, normaliseUserId } from '@app/contracts';
import { SandboxRepository } from '@app/database';
import type { Actor, Party } from '../events/normalise';

/** Who people are on the simulated network, as events name them: this account's own JID, and others with their LIDs. */
@Injectable()
export class SandboxPeople {
  constructor(private readonly store: SandboxRepository) {}

  async selfJid(instanceId: string): Promise<string> {
    const device = await this.store.device(instanceId);
    if (!device.phone || !device.deviceId) throw new AppError('device_not_paired');
    return `${device.phone}@s.whatsapp.net`;
  }

  /** A person with the LID the network knows for them. */
  async party(instanceId: string, jid: string): Promise<Party> {
    const contact = await this.store.contact(instanceId, jid);
    return contact?.lid ? { jid, lid: contact.lid } : { jid };
  }

  async actor(instanceId: string, jid: string, self: string): Promise<Actor> {
    return { ...(await this.party(instanceId, jid)), isMe: jid === self };
  }

  /** Resolves many people with one read of the address book. */
  async partyResolver(instanceId: string): Promise<(jid: string) => Party> {
    const lids = new Map((await this.store.contacts(instanceId)).filter((c) => c.lid).map((c) => [c.jid, c.lid as string]));
    return (jid) => (lids.has(jid) ? { jid, lid: lids.get(jid) } : { jid });
  }

  /** User JIDs from JIDs or numbers, each once; `field[i]` names the first that is neither. */
  users(values: string[], field: string): string[] {
    return [
      ...new Set(
        values.map((value, index) => {
          const jid = normaliseUserId(value);
          if (!jid) throw AppError.validation(`${field}[${index}] must be a user JID or an international number`);
          return jid;
        }),
      ),
    ];
  }
}
