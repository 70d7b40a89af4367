import type { EventEnvelope } from '@app/contracts';
import { WaitingFirstAttempts, type WaitingAttempt } from './waiting-first-attempts';

function waiting(url: string, eventId: string, since: number): WaitingAttempt {
  const envelope: EventEnvelope = {
    eventId,
    instanceId: 'i1',
    eventType: 'message',
    receivedAt: new Date(since).toISOString(),
    eventData: {},
  };
  return { instanceId: 'i1', url, envelope, since };
}

const ids = (attempts: (WaitingAttempt | undefined)[]) => attempts.map((attempt) => attempt?.envelope.eventId);

describe('WaitingFirstAttempts', () => {
  it('keeps each URL in arrival order and refuses past its capacity', () => {
    const lane = new WaitingFirstAttempts(3, 1_000);
    expect([lane.add(waiting('a', 'e1', 0)), lane.add(waiting('b', 'e2', 0)), lane.add(waiting('a', 'e3', 0))]).toEqual([true, true, true]);
    expect(lane.add(waiting('b', 'e4', 0))).toBe(false);
    expect(lane.urls()).toEqual(['a', 'b']);
    expect(ids([lane.take('a'), lane.take('a'), lane.take('a')])).toEqual(['e1', 'e3', undefined]);
    expect(lane.urls()).toEqual(['b']);
    expect(lane.size).toBe(1);
  });

  it('puts a taken event back at the front of its line', () => {
    const lane = new WaitingFirstAttempts(10, 1_000);
    lane.add(waiting('a', 'e1', 0));
    lane.add(waiting('a', 'e2', 0));
    const first = lane.take('a') as WaitingAttempt;
    lane.restore(first);
    expect(lane.size).toBe(2);
    expect(ids([lane.take('a'), lane.take('a')])).toEqual(['e1', 'e2']);
  });

  it('hands over the events that waited too long, oldest first, and drains the rest', () => {
    const lane = new WaitingFirstAttempts(10, 1_000);
    lane.add(waiting('a', 'old-a', 0));
    lane.add(waiting('a', 'new-a', 900));
    lane.add(waiting('b', 'old-b', 100));
    expect(ids(lane.expired(1_100))).toEqual(['old-a', 'old-b']);
    expect(lane.size).toBe(1);
    expect(lane.urls()).toEqual(['a']);
    expect(ids(lane.drain())).toEqual(['new-a']);
    expect(lane.size).toBe(0);
  });
});
