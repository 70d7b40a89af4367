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

/** A chat as the network lists it (history sync, the phone's chat list); fields left out stay as they were. */
export interface ChatFact {
  /** A group's JID, or a person's phone-number JID when known, else their LID. */
  jid: string;
  lid?: string;
  isGroup: boolean;
  archived?: boolean;
  pinned?: boolean;
  muted?: boolean;
  /** ISO time the mute ends; null: not muted, or muted until unmuted. */
  muteEndTime?: string | null;
  read?: boolean;
  ephemeralSeconds?: number;
  /** ISO time of the chat's latest message. */
  lastActivity?: string;
}

export interface StoreFacts {
  contacts?: ContactFact[];
  chats?: ChatFact[];
}
