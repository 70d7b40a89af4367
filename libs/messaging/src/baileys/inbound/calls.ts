import type { CallEndReason } from '@app/contracts';
import { normalise } from '../../events/normalise';
import type { BaileysEvents } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';

type CallStatus = BaileysEvents['call'][number]['status'];

/** A missed call (`timeout`) is neither a refusal nor a hang-up: the contract's `unknown`. */
const ENDINGS: Partial<Record<CallStatus, CallEndReason>> = { reject: 'rejected', terminate: 'ended', timeout: 'unknown' };

/**
 * `call`: `offer` and `ringing` both announce a call and give one `call_offer` per call id (an ended call's id stays
 * remembered, so a late `ringing` does not offer it again); `accept` gives
 * `call_accept`; `reject`, `terminate` and `timeout` give `call_terminate`. Transport and latency updates are no events.
 */
export function mapCalls(batch: InboundBatch, calls: BaileysEvents['call']): void {
  const offered = batch.memory.offeredCalls;
  for (const call of calls) {
    const caller = batch.who.party(call.from || call.callerPn || call.chatId);
    const time = call.date instanceof Date ? call.date : new Date();
    if (call.status === 'offer' || call.status === 'ringing') {
      if (call.from) batch.context.calls?.remember(call.id, call.from);
      if (offered.has(call.id)) continue;
      offered.add(call.id);
      const chatId = call.isGroup ? call.groupJid || call.chatId : undefined;
      batch.event(normalise.callOffer({ id: call.id, caller, chatId, time, isVideo: call.isVideo === true }));
    } else if (call.status === 'accept') {
      batch.event(normalise.callAccept({ id: call.id, caller, time }));
    } else {
      const reason = ENDINGS[call.status];
      if (!reason) continue;
      batch.event(normalise.callTerminate({ id: call.id, caller, time, reason }));
    }
  }
}
