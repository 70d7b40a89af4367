import type { Party } from '../../events/normalise';

export const STATUS_JID = 'status@broadcast';

export function isGroupJid(jid: string): boolean {
  return jid.endsWith('@g.us');
}

export function isLidJid(jid: string): boolean {
  return jid.endsWith('@lid');
}

export function isPhoneJid(jid: string): boolean {
  return jid.endsWith('@s.whatsapp.net');
}

/** The digits of a phone-number JID, without device part. */
export function phoneDigits(jid: string): string | undefined {
  return /^(\d+)(?::\d+)?@s\.whatsapp\.net$/.exec(jid)?.[1];
}

/**
 * A person as the network names them: in LID-addressed groups the id is the LID and the phone number comes beside
 * it; the gateway names people by phone-number JID where it can, with the LID beside it.
 */
export function partyOf(id: string, alternatives: { phoneNumber?: string; lid?: string } = {}): Party {
  const jid = isLidJid(id) && alternatives.phoneNumber ? alternatives.phoneNumber : id;
  const lid = isLidJid(id) ? id : alternatives.lid;
  return lid && lid !== jid ? { jid, lid } : { jid };
}

/** The network counts in Unix seconds; the gateway answers ISO times. */
export function isoFromSeconds(seconds: number | string | undefined | null): string | undefined {
  const value = Number(seconds);
  return seconds === undefined || seconds === null || !Number.isFinite(value) || value <= 0
    ? undefined
    : new Date(value * 1000).toISOString();
}
