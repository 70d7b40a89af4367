-- A send whose stanza was written but never acknowledged by the network's server (the link dropped before the ack, or
-- none came within the wait) is recorded `unconfirmed` instead of `sent`. Adding an enum value only expands: the
-- previous release never writes it, and reads it as a status it does not send again (only `accepted` rows are sent).
ALTER TYPE "MessageStatus" ADD VALUE 'unconfirmed';
