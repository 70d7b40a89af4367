import type { BaileysEvents } from '../baileys-library';
import { eventsIn, type Harness, inboundHarness } from '../testing/inbound';
import { ANA, BOB, GROUP, identityOf } from '../testing/people';

/** A call update as rc14's handleCall emits it (`from` with its device, the caller's phone number in `callerPn`). */
type CallEvent = BaileysEvents['call'][number];

function call(status: CallEvent['status'], extra: Partial<CallEvent> = {}): CallEvent {
  return {
    chatId: ANA.lid,
    from: '123456789012345:21@lid',
    callerPn: ANA.pn,
    id: 'A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D',
    date: new Date('2025-11-22T08:26:40.000Z'),
    offline: false,
    status,
    ...extra,
  };
}

describe('call', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness();
  });

  it('reports one offer for offer and ringing, then the accept and the end', async () => {
    const calls = [
      ...(await harness.deliver({ call: [call('offer', { isVideo: true, isGroup: false })] })),
      ...(await harness.deliver({ call: [call('ringing', { isVideo: true, isGroup: false })] })),
      ...(await harness.deliver({ call: [call('preaccept'), call('accept')] })),
      ...(await harness.deliver({ call: [call('transport'), call('terminate')] })),
    ];

    const base = { id: 'A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D', caller: identityOf(ANA), time: '2025-11-22T08:26:40.000Z' };
    expect(eventsIn(calls)).toEqual([
      { eventType: 'call_offer', data: { ...base, chatId: ANA.pn, isGroup: false, isVideo: true } },
      { eventType: 'call_accept', data: base },
      { eventType: 'call_terminate', data: { ...base, reason: 'ended' } },
    ]);
  });

  it('reports a group call offer in its group, and a rejected and a missed call', async () => {
    const group = { id: 'B1B2B3B4B5B6B7B8B9B0C1C2C3C4C5C6', from: BOB.lid, callerPn: BOB.pn, chatId: BOB.lid };
    const calls = await harness.deliver({
      call: [
        call('offer', { ...group, isVideo: false, isGroup: true, groupJid: GROUP }),
        call('reject', group),
        call('offer', { isVideo: false, isGroup: false }),
        call('timeout', { isVideo: false, isGroup: false }),
      ],
    });

    const time = '2025-11-22T08:26:40.000Z';
    expect(eventsIn(calls)).toEqual([
      { eventType: 'call_offer', data: { id: group.id, caller: identityOf(BOB), chatId: GROUP, isGroup: true, time, isVideo: false } },
      { eventType: 'call_terminate', data: { id: group.id, caller: identityOf(BOB), time, reason: 'rejected' } },
      {
        eventType: 'call_offer',
        data: { id: 'A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D', caller: identityOf(ANA), chatId: ANA.pn, isGroup: false, time, isVideo: false },
      },
      { eventType: 'call_terminate', data: { id: 'A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D', caller: identityOf(ANA), time, reason: 'unknown' } },
    ]);
  });

  it('remembers who each offered call came from, as the offer named them, for the reject', async () => {
    await harness.deliver({ call: [call('offer', { isVideo: false, isGroup: false })] });
    await harness.deliver({ call: [call('ringing', { id: 'C0FFEE00C0FFEE00C0FFEE00C0FFEE00', from: BOB.lid, callerPn: BOB.pn })] });
    expect(harness.context.calls?.from('A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D')).toBe('123456789012345:21@lid');
    expect(harness.context.calls?.from('C0FFEE00C0FFEE00C0FFEE00C0FFEE00')).toBe(BOB.lid);
  });
});
