import { Injectable, Logger } from '@nestjs/common';
import { passesEventFilters, type NormalisedEvent } from '@app/contracts';
import { MessageRepository, type Fence, type SendOutcome } from '@app/database';
import { normalise } from '@app/messaging';
import { EventFanout } from '../events/event-fanout';
import { EventRoutingCache } from '../events/event-routing.cache';

type MessageStatusEvent = Extract<NormalisedEvent, { eventType: 'message_status' }>;

/**
 * Sends recorded `unconfirmed` (the stanza was written, the network's server never acknowledged it) and what settles
 * them: the network's later word on the message. Invariants:
 * - an unconfirmed send is never sent again; only its row's status moves, once, from `unconfirmed` (PostgreSQL decides:
 *   the outcome statement matches the row only in that status, under the session's fence);
 * - a late ack (`message_status` sent from the driver) or any receipt of the recipient (`message_read` of our message)
 *   moves it to `sent`, a late refusal (`message_status` failed) to `failed`, each with its `message_status` event in
 *   the same commit; a receipt's own event follows;
 * - a driver's `message_status` sent for a send that is not unconfirmed says nothing new and is dropped.
 * The ids are kept per instance in memory, read once from PostgreSQL when the instance's first candidate event comes
 * after a (re)connect, so receipts of confirmed sends cost no query.
 */
@Injectable()
export class UnconfirmedSends {
  private readonly logger = new Logger(UnconfirmedSends.name);
  private readonly known = new Map<string, Promise<Set<string>>>();

  constructor(
    private readonly messages: MessageRepository,
    private readonly routing: EventRoutingCache,
    private readonly fanout: EventFanout,
  ) {}

  /** The dispatcher recorded this send unconfirmed (after its commit). */
  noted(instanceId: string, messageId: string): void {
    void this.known.get(instanceId)?.then((ids) => ids.add(messageId));
  }

  /** The instance's link (re)opened, perhaps after another worker owned it: read its unconfirmed sends anew when needed. */
  forget(instanceId: string): void {
    this.known.delete(instanceId);
  }

  /**
   * Records what the batch's events settle (see the class comment) and answers the events left to record as usual, in
   * their order. Throws what recording throws (FencedOutError under a stale fence).
   */
  async settle(instanceId: string, batch: NormalisedEvent[], fence?: Fence): Promise<NormalisedEvent[]> {
    if (!batch.some(candidate)) return batch;
    const ids = await this.ids(instanceId);
    const rest: NormalisedEvent[] = [];
    for (const event of batch) {
      if (event.eventType === 'message_status') {
        if (ids.has(event.data.id)) await this.record(instanceId, ids, event, fence);
        else if (event.data.status !== 'sent') rest.push(event);
        continue;
      }
      if (event.eventType === 'message_read' && event.data.messageSender?.isMe) {
        for (const id of event.data.messageIds.filter((each) => ids.has(each))) {
          await this.record(instanceId, ids, normalise.messageStatus({ id, chatId: event.data.chatId, status: 'sent' }), fence);
        }
      }
      rest.push(event);
    }
    return rest;
  }

  private async record(instanceId: string, ids: Set<string>, event: MessageStatusEvent, fence?: Fence): Promise<void> {
    const { id, status, error } = event.data;
    const outcome: SendOutcome = { status, from: 'unconfirmed', ...(error === undefined ? {} : { error }) };
    const routing = await this.routing.get(instanceId);
    const allowed = passesEventFilters(event.eventType, routing?.eventFilters ?? []) ? [event] : [];
    const deliver = routing?.webhookUrl != null;
    const sink = routing?.sink != null;
    const recorded = await this.messages.recordOutcome(instanceId, id, outcome, allowed, { deliver, sink, fence });
    ids.delete(id);
    if (!recorded.recorded) return;
    this.logger.log(`${instanceId}: unconfirmed send ${id} settled: ${status}`);
    void this.fanout.committed(instanceId, recorded.events, routing?.webhookUrl ?? null, sink);
  }

  private ids(instanceId: string): Promise<Set<string>> {
    let ids = this.known.get(instanceId);
    if (!ids) {
      ids = this.messages.unconfirmed(instanceId).then((found) => new Set(found));
      this.known.set(instanceId, ids);
      // A failed read is tried again with the next candidate event.
      ids.catch(() => this.known.delete(instanceId));
    }
    return ids;
  }
}

/** Events that may settle an unconfirmed send: the driver's late outcomes and receipts of our messages. */
function candidate(event: NormalisedEvent): boolean {
  return event.eventType === 'message_status' || (event.eventType === 'message_read' && event.data.messageSender?.isMe === true);
}
