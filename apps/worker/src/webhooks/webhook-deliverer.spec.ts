import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import type { AppConfig } from '@app/config';
import type { WebhookJob } from '@app/contracts';
import type { PendingDelivery, WebhookDeliveryRepository } from '@app/database';
import type { RedisService, WebhookQueue } from '@app/redis';
import type { EventRoutingCache } from '../events/event-routing.cache';
import type { DeliveryMetrics } from './delivery-metrics';
import type { EndpointRecovery } from './endpoint-recovery';
import { WebhookDeliverer } from './webhook-deliverer';

/** A receiver that holds every request until told to answer, so a URL's only slot stays busy. */
async function heldReceiver() {
  const held: (() => void)[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      held.push(() => res.writeHead(200).end('{}'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const answerAll = () => held.splice(0).forEach((answer) => answer());
  return { server, url, bodies, held, answerAll };
}

function pending(eventId: string): PendingDelivery {
  return {
    eventId,
    instanceId: 'ins_1',
    state: 'pending',
    attempts: 1,
    scheduleStep: 1,
    envelope: { eventId, instanceId: 'ins_1', eventType: 'message', receivedAt: '2026-11-28T00:00:00.000Z', eventData: { text: eventId } },
  };
}

describe('WebhookDeliverer, a queue job whose URL is busy', () => {
  let receiver: Awaited<ReturnType<typeof heldReceiver>>;
  let deliverer: WebhookDeliverer;
  const recorded: string[] = [];
  const scheduled: unknown[] = [];

  beforeEach(async () => {
    receiver = await heldReceiver();
    recorded.length = 0;
    scheduled.length = 0;
    const config = {
      webhookConcurrency: 64,
      webhookPerUrlConcurrency: 1,
      webhookAllowPrivateNetworks: false,
      webhookAllowedHosts: ['127.0.0.1'],
      webhookEgressProxy: undefined,
      webhookRetryScheduleSeconds: [0, 5, 300],
    } as unknown as AppConfig;
    const deliveries = {
      forAttempt: (eventId: string) => Promise.resolve(pending(eventId)),
      recordAttempt: (event: { eventId: string }) => {
        recorded.push(event.eventId);
        return Promise.resolve(true);
      },
    } as unknown as WebhookDeliveryRepository;
    const routing = {
      get: () => Promise.resolve({ instanceId: 'ins_1', webhookUrl: receiver.url, signingSecret: 'secret', pullMode: false }),
    } as unknown as EventRoutingCache;
    const queue = { schedule: (jobs: unknown[]) => Promise.resolve(void scheduled.push(...jobs)) } as unknown as WebhookQueue;
    const recovery = { delivered: () => Promise.resolve(), backingOff: () => Promise.resolve() } as unknown as EndpointRecovery;
    const metrics = { attempted: () => undefined } as unknown as DeliveryMetrics;
    deliverer = new WebhookDeliverer(config, {} as RedisService, deliveries, routing, queue, recovery, metrics);
  });

  afterEach(async () => {
    receiver.answerAll();
    await deliverer.stop();
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  const job = (eventId: string) => {
    const moveToDelayed = jest.fn(() => Promise.resolve());
    return { job: { data: { eventId, attempts: 1 }, moveToDelayed } as unknown as Job<WebhookJob>, moveToDelayed };
  };

  it('waits in the process for the slot (its job completes, nothing goes back to Redis) and is delivered once with its bytes', async () => {
    const first = job('evt_1');
    const second = job('evt_2');
    const firstDone = deliverer.process(first.job, 'token');
    await waitFor(() => receiver.held.length === 1);
    // The URL's only slot is taken: the second job must neither hold the queue's slot nor be delayed in Redis.
    await expect(deliverer.process(second.job, 'token')).resolves.toBeUndefined();
    expect(second.moveToDelayed).not.toHaveBeenCalled();
    // A copy of the held attempt (the reconciler re-queued its row) does nothing.
    const copy = job('evt_2');
    await deliverer.process(copy.job, 'token');
    receiver.answerAll();
    await firstDone;
    await waitFor(() => receiver.held.length === 1);
    receiver.answerAll();
    await waitFor(() => recorded.length === 2);
    expect(recorded).toEqual(['evt_1', 'evt_2']);
    expect(receiver.bodies).toEqual([JSON.stringify(pending('evt_1').envelope), JSON.stringify(pending('evt_2').envelope)]);
    expect(scheduled).toEqual([]);
  });

  it('goes back to the queue at shutdown if it is still waiting', async () => {
    const firstDone = deliverer.process(job('evt_1').job, 'token');
    await waitFor(() => receiver.held.length === 1);
    await deliverer.process(job('evt_2').job, 'token');
    const stopping = deliverer.stop();
    receiver.answerAll();
    await Promise.all([stopping, firstDone]);
    expect(scheduled).toEqual([{ eventId: 'evt_2', attempts: 1, delayMs: 0 }]);
    expect(recorded).toEqual(['evt_1']);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
