import type { InstanceStatus } from './instance';

/** The instance state the owning worker keeps in Redis for fast reads by the API (PostgreSQL holds the same). */
export interface LiveStatus {
  status: InstanceStatus;
  deviceId: string | null;
  updatedAt: number;
  /** Why the instance is in its status when its proxy put it there (`proxy_unreachable`, ...); absent otherwise. */
  reason?: string;
  /** The fencing token of the shard lease it was written under: a write under an older token never replaces it. */
  token?: number;
}

export function liveStatusKey(prefix: string, instanceId: string): string {
  return `${liveStatusKeyPrefix(prefix)}${instanceId}:status`;
}

/** What every live-status key starts with (and, today, no other key). */
export function liveStatusKeyPrefix(prefix: string): string {
  return `${prefix}:instance:`;
}

/** Paired means the network knows a linked device for this instance, whether or not the link is up now. */
export function isPaired(status: InstanceStatus): boolean {
  return status === 'connected' || status === 'connecting' || status === 'disconnected';
}

/**
 * An instance's sends paused after repeated restriction refusals (error acks 463/479), as the owning worker keeps it in
 * Redis for the API's status reads while the pause lasts (and its probe is out); gone when sends resume.
 */
export interface SendingPause {
  code: number;
  refusals: number;
  /** When one send probes whether the network takes the instance's messages again (epoch ms). */
  probeAt: number;
}

export function sendingPauseKey(prefix: string, instanceId: string): string {
  return `${sendingPauseKeyPrefix(prefix)}${instanceId}`;
}

/** What every sending-pause key starts with. */
export function sendingPauseKeyPrefix(prefix: string): string {
  return `${prefix}:sending-pause:`;
}
