import { Injectable } from '@nestjs/common';
import { AppError, type NewsletterInfo, type SandboxChannelSpec } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository, type SandboxNewsletterRecord } from '@app/database';
import { channelInviteCode, newsletterJid, pictureId } from './codes';

const KIND = 'channel';

/** A channel as the network keeps it, whoever follows it. */
export interface ChannelRecord {
  jid: string;
  name: string;
  description: string;
  inviteCode: string;
  /** Followers other than the owner. */
  subscriberCount: number;
  verified: boolean;
  /** Null for channels owned by someone outside this simulated world. */
  ownerJid: string | null;
  pictureId?: string;
  createdAt: string;
}

/** The simulated network's channel directory: every channel that exists, looked up by JID or invite code. */
@Injectable()
export class SandboxChannels {
  constructor(
    private readonly world: SandboxWorldRepository,
    private readonly store: SandboxRepository,
  ) {}

  async publish(instanceId: string, spec: SandboxChannelSpec & { picture?: boolean }, ownerJid: string | null): Promise<ChannelRecord> {
    const channel: ChannelRecord = {
      jid: newsletterJid(),
      name: spec.name,
      description: spec.description ?? '',
      inviteCode: channelInviteCode(),
      subscriberCount: spec.subscriberCount ?? 0,
      verified: spec.verified ?? false,
      ownerJid,
      ...(spec.picture ? { pictureId: pictureId() } : {}),
      createdAt: new Date().toISOString(),
    };
    await this.save(instanceId, channel);
    return channel;
  }

  /** The channel, or 404. A channel the phone followed before this directory knew it is registered on first sight. */
  async byJid(instanceId: string, jid: string): Promise<ChannelRecord> {
    const known = await this.world.record<ChannelRecord>(instanceId, KIND, jid);
    if (known) return known;
    const followed = await this.store.newsletter(instanceId, jid);
    if (!followed) throw new AppError('not_found');
    return this.register(instanceId, followed);
  }

  async byInviteCode(instanceId: string, code: string): Promise<ChannelRecord> {
    const channels = await this.world.records<ChannelRecord>(instanceId, KIND);
    const match = channels.find((entry) => entry.data.inviteCode === code);
    if (!match) throw new AppError('not_found');
    return match.data;
  }

  async countFollower(instanceId: string, channel: ChannelRecord, change: 1 | -1): Promise<void> {
    await this.save(instanceId, { ...channel, subscriberCount: Math.max(0, channel.subscriberCount + change) });
  }

  /** What the network tells this account about a channel; the viewer fields only when it follows it. */
  info(channel: ChannelRecord, follow: SandboxNewsletterRecord | null): NewsletterInfo {
    return {
      id: channel.jid,
      name: channel.name,
      description: channel.description,
      subscriberCount: channel.subscriberCount,
      verificationState: channel.verified ? 'VERIFIED' : 'UNVERIFIED',
      state: 'ACTIVE',
      createdAt: channel.createdAt,
      inviteCode: channel.inviteCode,
      ...(channel.pictureId ? { pictureUrl: `https://pps.whatsapp.net/v/t61.24694-24/${channel.pictureId}_n.jpg` } : {}),
      ...(follow ? { role: follow.role, mute: follow.muted ? 'MUTED' : 'UNMUTED' } : {}),
    };
  }

  private async register(instanceId: string, followed: SandboxNewsletterRecord): Promise<ChannelRecord> {
    const channel: ChannelRecord = {
      jid: followed.jid,
      name: followed.name,
      description: '',
      inviteCode: channelInviteCode(),
      subscriberCount: followed.role === 'OWNER' ? 0 : 1,
      verified: false,
      ownerJid: null,
      createdAt: new Date().toISOString(),
    };
    await this.save(instanceId, channel);
    return channel;
  }

  private async save(instanceId: string, channel: ChannelRecord): Promise<void> {
    await this.world.putRecord(instanceId, KIND, channel.jid, channel);
  }
}
