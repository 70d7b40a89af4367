/** The disappearing-message timer of a send, in seconds as the network takes it (0 is off); left out, the chat's own applies. */
export interface EphemeralPayload {
  ephemeralExpiration?: number;
}

/** The options text, media, contact and link sends carry; each is stored only when the request gave it. */
export interface SendOptionsPayload extends EphemeralPayload {
  /** People mentioned, as user JIDs. */
  mentions?: string[];
  /** Id of the message this one quotes. */
  replyTo?: string;
  /** Author of the quoted message (a user JID), given for someone else's message in a group. */
  replyToSenderId?: string;
  isForwarded?: true;
}
