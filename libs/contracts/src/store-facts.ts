/**
 * What a network session learns about people and chats besides events (push names on messages, verified business
 * names, address-book entries, chat lists from history sync). The worker keeps these in its store.
 */
export interface ContactFact {
  /** Phone-number JID when known, else the LID. */
  jid: string;
  lid?: string;
  pushName?: string;
  /** null: no longer in the address book. */
  fullName?: string | null;
  firstName?: string | null;
  /** null: not (or no longer) a business. */
  businessName?: string | null;
}

export interface StoreFacts {
  contacts?: ContactFact[];
}
