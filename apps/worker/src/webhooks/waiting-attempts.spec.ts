import type { PendingDelivery } from '@app/database';
import { WaitingAttempts, type WaitingAttempt } from './waiting-attempts';

function waiting(url: string, eventId: string, until: number): WaitingAttempt {
  const delivery: PendingDelivery = {
    eventId,
    instanceId: 'i1',
    state: 'pending',
    attempts: 0,
    scheduleStep: 0,
    envelope: { eventId, instanceId: 'i1', eventType: 'message', receivedAt: new Date(0).toISOString(), eventData: {} },
  };
  return { instanceId: 'i1', url, delivery, queued: false, until };
}

const ids = (attempts: (WaitingAttempt | undefined)[]) => attempts.map((attempt) => attempt?.delivery.eventId);

describe('WaitingAttempts', () => {
  it('keeps each URL in arrival order and refuses past its capacity', () => {
    const lane = new WaitingAttempts(3);
    expect([lane.add(waiting('a', 'e1', 0)), lane.add(waiting('b', 'e2', 0)), lane.add(waiting('a', 'e3', 0))]).toEqual([true, true, true]);
    expect(lane.add(waiting('b', 'e4', 0))).toBe(false);
    expect(lane.urls()).toEqual(['a', 'b']);
    expect(ids([lane.take('a'), lane.take('a'), lane.take('a')])).toEqual(['e1', 'e3', undefined]);
    expect(lane.urls()).toEqual(['b']);
    expect(lane.size).toBe(1);
  });

  it('refuses an attempt whose URL already has its share waiting, and takes other URLs', () => {
    const lane = new WaitingAttempts(10);
    expect([lane.add(waiting('a', 'e1', 0), 2), lane.add(waiting('a', 'e2', 0), 2), lane.add(waiting('a', 'e3', 0), 2)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(lane.add(waiting('b', 'e4', 0), 2)).toBe(true);
    expect(lane.size).toBe(3);
  });

  it('puts a taken event back at the front of its line', () => {
    const lane = new WaitingAttempts(10);
    lane.add(waiting('a', 'e1', 0));
    lane.add(waiting('a', 'e2', 0));
    const first = lane.take('a') as WaitingAttempt;
    lane.restore(first);
    expect(lane.size).toBe(2);
    expect(ids([lane.take('a'), lane.take('a')])).toEqual(['e1', 'e2']);
  });

  it('hands over the attempts whose deadline has come, keeping the others in line, and drains the rest', () => {
    const lane = new WaitingAttempts(10);
    lane.add(waiting('a', 'due-a', 1_000));
    lane.add(waiting('a', 'new-a', 1_900));
    lane.add(waiting('a', 'due-a2', 1_050));
    lane.add(waiting('b', 'due-b', 1_100));
    expect(ids(lane.expired(1_100, (attempt) => attempt.url !== 'b'))).toEqual(['due-a', 'due-a2']);
    expect(ids(lane.expired(1_100))).toEqual(['due-b']);
    expect(lane.size).toBe(1);
    expect(lane.urls()).toEqual(['a']);
    expect(ids(lane.drain())).toEqual(['new-a']);
    expect(lane.size).toBe(0);
  });
});
