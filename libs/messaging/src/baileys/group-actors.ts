import type { BinaryNode } from '@whiskeysockets/baileys';
import type { BaileysSocket } from './baileys-library';

/**
 * The other identity of whoever made a recent group change, as the `w:gp2` notification named them. The notification
 * carries the actor's LID in `participant` and the phone number in `participant_pn` (a phone-number-addressed group: the
 * reverse, `participant_lid`), but rc14 builds its stub message key with `proto.WebMessageInfo.fromObject`, whose
 * MessageKey has no `participantAlt`: `group-participants.update` and `groups.update` arrive with `author` alone and
 * `authorPn` undefined, and a member the instance has no pair for would be named by LID only. The socket emits the
 * notification to this listener (`CB:notification,type:w:gp2`) before Baileys' own handler, so the pair is known by the
 * time the event is mapped.
 */
export class GroupActors {
  private readonly others = new Map<string, string>();

  constructor(private readonly limit = 2_000) {}

  watch(socket: BaileysSocket): void {
    const ws = (socket as Partial<BaileysSocket>).ws;
    ws?.on?.('CB:notification,type:w:gp2', (node: BinaryNode) => this.notified(node));
  }

  notified({ attrs }: BinaryNode): void {
    const actor = attrs.participant;
    const other = attrs.participant_pn ?? attrs.participant_lid;
    if (!actor || !other) return;
    this.remember(userOf(actor), userOf(other));
    this.remember(userOf(other), userOf(actor));
  }

  /** The actor's other user JID (without device), when a recent notification named both. */
  otherOf(jid: string): string | undefined {
    return this.others.get(userOf(jid));
  }

  private remember(jid: string, other: string): void {
    this.others.delete(jid);
    this.others.set(jid, other);
    if (this.others.size > this.limit) this.others.delete(this.others.keys().next().value as string);
  }
}

/** `123:4@lid` → `123@lid`: the notification may name a device. */
function userOf(jid: string): string {
  const [local, server] = jid.split('@');
  return `${local.split(':')[0]}@${server}`;
}
