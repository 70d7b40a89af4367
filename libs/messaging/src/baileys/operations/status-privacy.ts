import type { StatusPrivacy } from '@app/contracts';
import type { BaileysSocket } from '../baileys-library';
import { childOf, childrenOf, type Node } from './binary-nodes';
import { networkCode } from './network-errors';

/** What the network means when the account never set who sees its status: all contacts. */
export const DEFAULT_STATUS_PRIVACY: StatusPrivacy = { type: 'contacts', list: [], isDefault: true };

const TYPES = new Set<StatusPrivacy['type']>(['contacts', 'blacklist', 'whitelist']);

/**
 * Who sees the account's status posts, from the network's `status` privacy IQ (Baileys rc14 has no call for it; its
 * `fetchPrivacySettings` gives only the coarse `status` category). The network may keep several lists; the one it
 * marks default is in force and comes first.
 */
export async function statusPrivacy(socket: BaileysSocket): Promise<StatusPrivacy[]> {
  let answer: Node;
  try {
    answer = (await socket.query({
      tag: 'iq',
      attrs: { type: 'get', xmlns: 'status', to: 's.whatsapp.net' },
      content: [{ tag: 'privacy', attrs: {} }],
    })) as Node;
  } catch (error) {
    // An account that never chose has no setting to read.
    if (networkCode(error) === 404) return [DEFAULT_STATUS_PRIVACY];
    throw error;
  }
  const settings = childrenOf(childOf(answer, 'privacy'), 'list')
    .filter((list) => TYPES.has(list.attrs.type as StatusPrivacy['type']))
    .map((list): StatusPrivacy => ({
      type: list.attrs.type as StatusPrivacy['type'],
      list: childrenOf(list, 'user')
        .map((user) => user.attrs.jid)
        .filter((jid): jid is string => typeof jid === 'string'),
      isDefault: list.attrs.default === 'true',
    }));
  if (settings.length === 0) return [DEFAULT_STATUS_PRIVACY];
  return [...settings.filter((setting) => setting.isDefault), ...settings.filter((setting) => !setting.isDefault)];
}

/**
 * The people a post reaches under a setting: the address book's contacts, less a blacklist, or exactly a whitelist
 * (which may name people not saved), as the phone computes it.
 */
export function audienceOf(setting: StatusPrivacy, addressBook: string[]): string[] {
  if (setting.type === 'whitelist') return [...new Set(setting.list)].sort();
  const excluded = new Set(setting.type === 'blacklist' ? setting.list : []);
  return [...new Set(addressBook)].filter((jid) => !excluded.has(jid)).sort();
}
