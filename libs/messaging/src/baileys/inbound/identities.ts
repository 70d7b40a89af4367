import type { Actor, Party } from '../../events/normalise';
import type { BaileysLibrary, BaileysSocket } from '../baileys-library';

/** A person's two JIDs: their LID and their phone-number JID (both without device). */
export interface LidPair {
  lid: string;
  pn: string;
}

type LidLookup = (lids: string[]) => Promise<{ lid: string; pn: string }[] | null | undefined>;

/**
 * Who is who in one event batch. The network names a person by LID or by phone number and carries the other form
 * only sometimes; the LID is the stable identity. Every person an event names becomes the normaliser's `Party`: the
 * phone-number JID when it is known (the contract's preferred `id`), else the LID, with the LID alongside. Pairs come
 * from the batch itself and, for LIDs the batch leaves bare, from the pairs Baileys already stored.
 */
export class Identities {
  private readonly pnOfLid = new Map<string, string>();
  private readonly lidOfPn = new Map<string, string>();
  /** Pairs the batch itself carried, by LID: facts for the store. */
  private readonly carried = new Map<string, string>();
  private readonly selfPn: string;
  private readonly selfLid?: string;

  constructor(
    private readonly lib: BaileysLibrary,
    selfJid: string,
    selfLid?: string,
  ) {
    this.selfPn = lib.jidNormalizedUser(selfJid);
    this.selfLid = selfLid ? lib.jidNormalizedUser(selfLid) : undefined;
    if (this.selfLid) this.link(this.selfLid, this.selfPn);
  }

  /** Two JIDs of one person, in either order; anything else (groups, two LIDs, a missing side) is ignored. */
  pair(first: string | null | undefined, second: string | null | undefined): void {
    const pair = this.ordered(first, second);
    if (!pair) return;
    // Our own messages carry our own alternate JID next to the peer's (`sender_pn`): a pair is only believed when
    // both sides are this account or neither is.
    if (this.isSelf(pair.lid) || this.isSelf(pair.pn)) return;
    this.link(pair.lid, pair.pn);
    this.carried.set(pair.lid, pair.pn);
  }

  /**
   * Fills in, with one lookup each way, the phone numbers Baileys knows for LIDs the batch names without one and the
   * LIDs it has stored for phone numbers named alone (a receipt from a phone-number chat carries no LID).
   */
  async lookUp(people: Iterable<string>, socket: BaileysSocket): Promise<void> {
    const users = [...new Set([...people].map((jid) => this.user(jid)))];
    const lookup = lidLookup(socket);
    const unknownLids = users.filter((lid) => this.lib.isLidUser(lid) && !this.pnOfLid.has(lid));
    if (lookup && unknownLids.length > 0) {
      for (const { lid, pn } of (await lookup(unknownLids)) ?? []) {
        const pair = this.ordered(lid, pn);
        if (pair && !this.pnOfLid.has(pair.lid)) this.link(pair.lid, pair.pn);
      }
    }
    const unknownPns = users.filter((pn) => this.lib.isPnUser(pn) && !this.lidOfPn.has(pn) && !this.isSelf(pn));
    const stored = storedLids(socket);
    if (!stored || unknownPns.length === 0) return;
    const lidUsers = await stored(unknownPns.map((pn) => pn.split('@')[0]));
    for (const pn of unknownPns) {
      const lidUser = lidUsers[pn.split('@')[0]];
      if (typeof lidUser === 'string' && lidUser) this.link(`${lidUser}@lid`, pn);
    }
  }

  /** The pairs the batch carried (never this account's own): what the store should learn. */
  carriedPairs(): LidPair[] {
    return [...this.carried].map(([lid, pn]) => ({ lid, pn }));
  }

  party(jid: string): Party {
    const user = this.user(jid);
    if (this.lib.isLidUser(user)) {
      const pn = this.pnOfLid.get(user);
      return pn ? { jid: pn, lid: user } : { jid: user };
    }
    if (this.lib.isPnUser(user)) {
      const lid = this.lidOfPn.get(user);
      return lid ? { jid: user, lid } : { jid: user };
    }
    return { jid: user };
  }

  actor(jid: string): Actor {
    return this.isSelf(jid) ? this.self() : { ...this.party(jid), isMe: false };
  }

  self(): Actor {
    return this.selfLid ? { jid: this.selfPn, lid: this.selfLid, isMe: true } : { jid: this.selfPn, isMe: true };
  }

  isSelf(jid: string | null | undefined): boolean {
    if (!jid) return false;
    const user = this.user(jid);
    return user === this.selfPn || (this.selfLid !== undefined && user === this.selfLid);
  }

  /** The chat id events use: a person's phone-number JID when known, else their LID; other chats as they are. */
  chatId(jid: string): string {
    return this.party(jid).jid;
  }

  /** The JID without device or agent; what is not a JID stays as it is. */
  user(jid: string): string {
    return this.lib.jidNormalizedUser(jid) || jid;
  }

  private link(lid: string, pn: string): void {
    this.pnOfLid.set(lid, pn);
    this.lidOfPn.set(pn, lid);
  }

  private ordered(first: string | null | undefined, second: string | null | undefined): LidPair | undefined {
    if (!first || !second) return undefined;
    const [a, b] = [this.user(first), this.user(second)];
    if (this.lib.isLidUser(a) && this.lib.isPnUser(b)) return { lid: a, pn: b };
    if (this.lib.isPnUser(a) && this.lib.isLidUser(b)) return { lid: b, pn: a };
    return undefined;
  }
}

/**
 * The LID users Baileys stored for phone-number users (`lid-mapping` keys), read locally: Baileys' own PN → LID lookup
 * would ask the network for every unknown number, which an event batch must not do.
 */
function storedLids(socket: BaileysSocket): ((pnUsers: string[]) => Promise<Record<string, unknown>>) | undefined {
  const keys = (socket as Partial<BaileysSocket>).authState?.keys;
  return keys ? async (pnUsers) => keys.get('lid-mapping', pnUsers) : undefined;
}

/** Baileys' LID mapping store answers from its cache and the auth keys; it never asks the network for LID → PN. */
function lidLookup(socket: BaileysSocket): LidLookup | undefined {
  const mapping = (socket as Partial<BaileysSocket>).signalRepository?.lidMapping;
  return mapping ? (lids) => mapping.getPNsForLIDs(lids) : undefined;
}
