/** Receipts an instance sends for a message it received; `delivered` is the receipt without a type. */
export const SEND_RECEIPT_TYPES = ['delivered', 'sender', 'read', 'played'] as const;
export type SendReceiptType = (typeof SEND_RECEIPT_TYPES)[number];

/** How long a pin lasts, as the network offers it. */
export const PIN_EXPIRATIONS = ['24h', '7d', '30d'] as const;
export type PinExpiration = (typeof PIN_EXPIRATIONS)[number];

/** Every send that acts on an existing message names it. */
interface TargetPayload {
  /** Id of the message acted on. */
  targetId: string;
}

/** A message acted on that the network may no longer keep is found by its author (a user JID). */
interface AuthoredTargetPayload extends TargetPayload {
  senderId: string;
}

/** Replaces the text of one of our messages. */
export interface EditPayload extends TargetPayload {
  text: string;
  mentions?: string[];
}

/** Deletes a message for everyone. */
export type DeletePayload = AuthoredTargetPayload;

/** Deletes a message from this account's own devices only; the phone matches it by author and time. */
export interface DeleteForMePayload extends TargetPayload {
  senderId?: string;
  isFromMe?: boolean;
  /** When the message was sent (ISO time). */
  timestamp?: string;
}

/** An emoji, or empty to remove our reaction. */
export interface ReactionPayload extends TargetPayload {
  reaction: string;
  senderId?: string;
}

/** Fields with a default may be left out of a stored payload; the API writes them all. */
export interface ReadPayload extends TargetPayload {
  senderId?: string;
  /** `read` when left out. */
  receiptType?: SendReceiptType;
}

export interface StarPayload extends TargetPayload {
  senderId?: string;
  /** True when left out. */
  starred?: boolean;
}

export interface PinPayload extends TargetPayload {
  senderId?: string;
  /** True when left out. */
  pinned?: boolean;
  /** Only while pinning; `7d` when left out. */
  pinExpiration?: PinExpiration;
}
