import { EventLogRepository, WebhookDeliveryRepository, type AttemptRecord, type StoredEvent } from '@app/database';
import { RepositoryDatabase } from './repository-database';
import { deliveryRows } from './stored-rows';

describe('WebhookDeliveryRepository on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const log = new EventLogRepository(db.prisma);
  const deliveries = new WebhookDeliveryRepository(db.prisma, db.box);

  afterAll(() => db.close());

  async function delivered(instanceId: string, count: number, receivedAt = new Date()): Promise<StoredEvent[]> {
    const events = Array.from({ length: count }, (_, i) => ({ eventType: 'message' as const, data: { i } }));
    return (await log.appendMany(instanceId, events, { deliver: true, receivedAt })) as StoredEvent[];
  }

  const attempt = (number: number, statusCode: number | null, outcome: AttemptRecord['outcome']): AttemptRecord => ({
    number,
    url: 'https://hooks.example.com/in',
    startedAt: new Date('2026-11-20T10:00:00.000Z'),
    durationMs: 12,
    statusCode,
    outcome,
    error: outcome === 'delivered' ? null : `HTTP ${statusCode}`,
  });

  describe('routing', () => {
    it("follows the customer's defaults or the instance's own settings, and a URL that answered 410 is off", async () => {
      const [own, following] = await db.instances(2);
      const [customer] = await db.rows<{ customer_id: string }>('SELECT customer_id FROM instances WHERE id = $1', [own]);
      await db.rows(
        'UPDATE customers SET default_webhook_url = $2, default_signing_secret_enc = $3, default_event_filters = $4 WHERE id = $1',
        [customer.customer_id, 'https://defaults.example.com/hook', db.box.encrypt('customer-secret'), ['message']],
      );
      await db.rows('UPDATE instances SET use_custom_defaults = false, webhook_url = $2, event_signing_secret_enc = $3 WHERE id = $1', [
        own,
        'https://own.example.com/hook',
        db.box.encrypt('own-secret'),
      ]);

      expect(await deliveries.routing(own)).toEqual({
        instanceId: own,
        eventFilters: [],
        pullMode: false,
        webhookUrl: 'https://own.example.com/hook',
        configuredUrl: 'https://own.example.com/hook',
        signingSecret: 'own-secret',
        sink: null,
      });
      expect(await deliveries.routing(following)).toEqual({
        instanceId: following,
        eventFilters: ['message'],
        pullMode: false,
        webhookUrl: 'https://defaults.example.com/hook',
        configuredUrl: 'https://defaults.example.com/hook',
        signingSecret: 'customer-secret',
        sink: null,
      });

      await deliveries.markGone(own, 'https://own.example.com/hook');
      await deliveries.markGone(own, 'https://own.example.com/hook');
      expect(await deliveries.routing(own)).toMatchObject({ webhookUrl: null, configuredUrl: 'https://own.example.com/hook' });
      expect(await deliveries.routing(following)).toMatchObject({ webhookUrl: 'https://defaults.example.com/hook' });
      await deliveries.forgetGoneUrls({ customerId: customer.customer_id });
      expect(await deliveries.routing(own)).toMatchObject({ webhookUrl: 'https://own.example.com/hook' });
      expect(await deliveries.routing('ins_repo_missing')).toBeNull();
    });
  });

  describe('attempts', () => {
    it('loads a delivery with its event and records each attempt number once', async () => {
      const [instance] = await db.instances(1);
      const [event] = await delivered(instance, 1);
      const { eventId } = event.envelope;

      expect(await deliveries.forAttempt(eventId)).toEqual({
        eventId,
        instanceId: instance,
        state: 'pending',
        attempts: 0,
        scheduleStep: 0,
        envelope: event.envelope,
      });
      const retryAt = new Date('2026-11-20T10:00:30.000Z');
      const [first, repeated] = await Promise.all([
        deliveries.recordAttempt(event.envelope, attempt(1, 500, 'failed'), {
          state: 'pending',
          scheduleStep: 1,
          nextAttemptAt: retryAt,
          lastError: 'HTTP 500',
        }),
        deliveries.recordAttempt(event.envelope, attempt(1, 200, 'delivered'), {
          state: 'delivered',
          scheduleStep: 1,
          nextAttemptAt: retryAt,
          lastError: null,
        }),
      ]);
      expect([first, repeated]).toEqual([true, false]);
      expect(
        await deliveries.recordAttempt(event.envelope, attempt(2, 200, 'delivered'), {
          state: 'delivered',
          scheduleStep: 2,
          nextAttemptAt: retryAt,
          lastError: null,
        }),
      ).toBe(true);
      expect(
        await deliveries.recordAttempt(event.envelope, attempt(3, 200, 'delivered'), {
          state: 'delivered',
          scheduleStep: 3,
          nextAttemptAt: retryAt,
          lastError: null,
        }),
      ).toBe(false);

      expect(await deliveryRows(db, instance)).toEqual([
        { event_id: eventId, instance_id: instance, state: 'delivered', attempts: 2, schedule_step: 2, last_error: null },
      ]);
      expect(await deliveries.report(instance, eventId)).toEqual({
        eventId,
        state: 'delivered',
        nextAttemptAt: null,
        attempts: [attempt(1, 500, 'failed'), attempt(2, 200, 'delivered')],
      });
      expect(await deliveries.forAttempt('evt_missing')).toBeNull();
    });
  });

  describe('recovery', () => {
    it('redelivers an event of its own instance only, creating the delivery when it never had one', async () => {
      const [instance, other] = await db.instances(2);
      const kept = (await log.append(instance, 'message', { i: 0 }, { deliver: false })) as StoredEvent;
      const [sent] = await delivered(instance, 1);
      await deliveries.recordAttempt(sent.envelope, attempt(1, 500, 'failed'), {
        state: 'failed',
        scheduleStep: 4,
        nextAttemptAt: new Date(),
        lastError: 'HTTP 500',
      });

      expect(await deliveries.report(instance, kept.envelope.eventId)).toEqual({
        eventId: kept.envelope.eventId,
        state: 'none',
        attempts: [],
        nextAttemptAt: null,
      });
      expect(await deliveries.redeliver(other, kept.envelope.eventId)).toBeNull();
      expect(await deliveries.redeliver(instance, kept.envelope.eventId)).toBe(0);
      expect(await deliveries.redeliver(instance, sent.envelope.eventId)).toBe(1);

      expect(await deliveryRows(db, instance)).toEqual([
        { event_id: kept.envelope.eventId, instance_id: instance, state: 'pending', attempts: 0, schedule_step: 0, last_error: null },
        { event_id: sent.envelope.eventId, instance_id: instance, state: 'pending', attempts: 1, schedule_step: 0, last_error: null },
      ]);
      expect(await deliveryRows(db, other)).toEqual([]);
    });

    it("releases an instance's waiting deliveries and restarts its failed ones since a time, oldest event first", async () => {
      const [instance, other] = await db.instances(2);
      const old = await delivered(instance, 1, new Date('2026-11-01T00:00:00.000Z'));
      const recent = await delivered(instance, 3);
      const [elsewhere] = await delivered(other, 1);
      const later = new Date(Date.now() + 3_600_000);
      const failed = { state: 'failed' as const, scheduleStep: 9, nextAttemptAt: later, lastError: 'HTTP 500' };
      const waiting = { state: 'pending' as const, scheduleStep: 2, nextAttemptAt: later, lastError: 'HTTP 503' };
      await deliveries.recordAttempt(old[0].envelope, attempt(1, 500, 'failed'), failed);
      await deliveries.recordAttempt(recent[2].envelope, attempt(1, 500, 'failed'), failed);
      await deliveries.recordAttempt(recent[1].envelope, attempt(1, 503, 'failed'), waiting);
      await deliveries.recordAttempt(recent[0].envelope, attempt(1, 503, 'failed'), waiting);
      await deliveries.recordAttempt(elsewhere.envelope, attempt(1, 503, 'failed'), waiting);

      expect(await deliveries.releaseWaiting(instance)).toEqual([
        { eventId: recent[0].envelope.eventId, attempts: 1 },
        { eventId: recent[1].envelope.eventId, attempts: 1 },
      ]);
      expect(await deliveries.redeliverSince(instance, new Date(Date.now() - 3_600_000), 'failed')).toEqual([
        { eventId: recent[2].envelope.eventId, attempts: 1 },
      ]);

      expect(await deliveryRows(db, instance)).toEqual([
        {
          event_id: old[0].envelope.eventId,
          instance_id: instance,
          state: 'failed',
          attempts: 1,
          schedule_step: 9,
          last_error: 'HTTP 500',
        },
        {
          event_id: recent[0].envelope.eventId,
          instance_id: instance,
          state: 'pending',
          attempts: 1,
          schedule_step: 2,
          last_error: 'HTTP 503',
        },
        {
          event_id: recent[1].envelope.eventId,
          instance_id: instance,
          state: 'pending',
          attempts: 1,
          schedule_step: 2,
          last_error: 'HTTP 503',
        },
        { event_id: recent[2].envelope.eventId, instance_id: instance, state: 'pending', attempts: 1, schedule_step: 0, last_error: null },
      ]);
      const [untouched] = await db.rows<{ due_later: boolean }>(
        'SELECT next_attempt_at > now() AS due_later FROM webhook_deliveries WHERE event_id = $1',
        [elsewhere.envelope.eventId],
      );
      expect(untouched).toEqual({ due_later: true });
    });
  });
});
