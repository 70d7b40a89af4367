import type { SignalKeyStoreWithTransaction } from '@whiskeysockets/baileys';

/** The one transaction key every Signal-session transaction of a socket runs under. */
export const SIGNAL_TRANSACTION_KEY = 'signal-sessions';

/**
 * Makes every transaction of a socket that touches Signal sessions run one after another.
 *
 * Baileys (rc14) takes a transaction's lock by the key its caller names: a send runs under our own JID, the decryption
 * of an inbound message under the sender's JID, a standalone encryption under the recipient's. So a send and an
 * inbound message from the same contact run at the same time, each reads the contact's session record into its own
 * transaction cache, and each commits the whole record: the one that commits last silently undoes the other's ratchet
 * step. The contact then fails to decrypt our next message, or we fail to decrypt theirs (Bad MAC, "Key used already").
 * A key store slower than memory (PostgreSQL) widens the window, and a takeover makes the loss permanent.
 *
 * Every key that names a JID (ours, a contact's, a group's) is mapped to one key, so those transactions share one
 * lock. Keys that name no JID keep theirs: `lid-mapping` above all, which a send waits for through a coalesced lookup
 * that another caller started, and which must not wait for the send in turn.
 */
export function serialiseSignalTransactions(keys: Pick<SignalKeyStoreWithTransaction, 'transaction'>): void {
  const transaction = keys.transaction.bind(keys);
  keys.transaction = <T>(work: () => Promise<T>, key: string): Promise<T> =>
    transaction(work, key.includes('@') ? SIGNAL_TRANSACTION_KEY : key);
}
