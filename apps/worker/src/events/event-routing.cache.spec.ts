import type { EventRouting, WebhookDeliveryRepository } from '@app/database';
import type { InvalidationBus } from '@app/redis';
import { EventRoutingCache } from './event-routing.cache';

function routing(webhookUrl: string | null): EventRouting {
  return { instanceId: 'ins_1', eventFilters: [], pullMode: false, webhookUrl, configuredUrl: webhookUrl, signingSecret: null, sink: null };
}

describe('EventRoutingCache', () => {
  let listener: (message: string) => void;
  let stored: EventRouting;
  let reads: number;
  let releaseRead: (() => void) | undefined;
  const bus = {
    isLive: true,
    subscribe: (_topic: string, handler: (message: string) => void) => (listener = handler),
    onLost: () => undefined,
    publish: () => Promise.resolve(),
  } as unknown as InvalidationBus;
  const repository = {
    routing: async () => {
      reads += 1;
      const seen = stored;
      if (releaseRead) await new Promise<void>((resolve) => (releaseRead = resolve));
      return seen;
    },
  } as unknown as WebhookDeliveryRepository;

  beforeEach(() => {
    stored = routing('https://a.example/hook');
    reads = 0;
    releaseRead = undefined;
  });

  it('serves from memory until the settings change is published', async () => {
    const cache = new EventRoutingCache(repository, bus);
    cache.onModuleInit();
    expect(await cache.get('ins_1')).toEqual(routing('https://a.example/hook'));
    expect(await cache.get('ins_1')).toEqual(routing('https://a.example/hook'));
    expect(reads).toBe(1);
    stored = routing('https://b.example/hook');
    listener('ins_1');
    expect(await cache.get('ins_1')).toEqual(routing('https://b.example/hook'));
    expect(reads).toBe(2);
  });

  it('does not keep a read that overlapped an invalidation', async () => {
    const cache = new EventRoutingCache(repository, bus);
    cache.onModuleInit();
    releaseRead = () => undefined;
    const inFlight = cache.get('ins_1');
    await Promise.resolve();
    stored = routing(null);
    listener('ins_1');
    releaseRead();
    expect(await inFlight).toEqual(routing('https://a.example/hook'));
    releaseRead = undefined;
    expect(await cache.get('ins_1')).toEqual(routing(null));
  });
});
