import { PushNames, type KnownPushName } from './push-names';
import { RecentIds } from './recent-ids';

/** What inbound mapping remembers across batches for one socket; it goes with the socket. */
export interface SocketMemory {
  /** Calls already reported as offered: the network says `offer`, then `ringing`, for the same call. */
  offeredCalls: RecentIds;
  /** Edits already reported from their own message (`chat|target|seconds`); Baileys repeats each in `messages.update`. */
  edits: RecentIds;
  /** Push names met, to tell a changed name from one already known. */
  pushNames: PushNames;
}

export function newSocketMemory(knownPushName?: KnownPushName): SocketMemory {
  return { offeredCalls: new RecentIds(500), edits: new RecentIds(1_000), pushNames: new PushNames(knownPushName) };
}
