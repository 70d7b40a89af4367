import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { renderSinkTemplate, type EventEnvelope, type EventSinkSettings } from '@app/contracts';
import {
  describe,
  leadingSuccesses,
  probeUntilUp,
  sinkBody,
  within,
  type BrokerConnection,
  type BrokerConnectionHooks,
  type PublishResult,
} from '../broker-connection';

const CONNECT_TIMEOUT_MS = 10_000;
/** A broker that neither confirms nor refuses (blocked by a resource alarm, a dead peer) fails the batch after this. */
const CONFIRM_TIMEOUT_MS = 15_000;
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * RabbitMQ (AMQP 0-9-1) with publisher confirms: one connection and one confirm channel per broker URL. Messages are
 * persistent, `messageId` = event id (consumers de-duplicate on it: delivery is at least once), published to the
 * configured exchange with the rendered routing key. One channel keeps an instance's messages in order. The exchange
 * must exist: the gateway declares nothing (the topology is the operator's); a missing one fails the attempt with the
 * broker's 404, which closes only the channel.
 */
export class RabbitMqConnection implements BrokerConnection {
  private model: ChannelModel | undefined;
  private channel: ConfirmChannel | undefined;
  private opening: Promise<ConfirmChannel> | undefined;
  /** Why the broker last closed the channel (a missing exchange: 404); confirms only learn "channel closed". */
  private channelError: Error | undefined;
  private probing = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly hooks: BrokerConnectionHooks,
    private readonly hostProblem: () => Promise<string | null>,
  ) {}

  async publish(settings: EventSinkSettings, events: readonly EventEnvelope[]): Promise<PublishResult> {
    if (settings.kind !== 'rabbitmq') return { published: 0, error: `a ${settings.kind} sink cannot publish through RabbitMQ` };
    let channel: ConfirmChannel;
    try {
      channel = await this.open();
    } catch (error) {
      this.lost();
      return { published: 0, error: `cannot connect to the broker: ${describe(error)}` };
    }
    const confirms = events.map(
      (envelope) =>
        new Promise<void>((resolve, reject) => {
          try {
            channel.publish(
              settings.exchange,
              renderSinkTemplate(settings.routingKey, envelope),
              sinkBody(envelope),
              {
                persistent: true,
                messageId: envelope.eventId,
                contentType: 'application/json',
                type: envelope.eventType,
                appId: 'messaging-gateway',
                timestamp: Math.floor(Date.parse(envelope.receivedAt) / 1000),
                headers: { 'x-instance-id': envelope.instanceId },
              },
              (error: unknown) =>
                // A nack comes as a non-Error value: the broker refused the message (e.g. a queue limit).
                error ? reject(error instanceof Error ? error : new Error('the broker refused the message (nack)')) : resolve(),
            );
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        }),
    );
    let settled: PromiseSettledResult<void>[];
    try {
      settled = await within(Promise.allSettled(confirms), CONFIRM_TIMEOUT_MS, 'waiting for publisher confirms');
    } catch (error) {
      // Unconfirmed: the connection is not to be trusted any more; the messages go again on a new one.
      await this.reset();
      return { published: 0, error: describe(error) };
    }
    const result = leadingSuccesses(settled);
    if (result.error) {
      if (this.channelError) result.error = describe(this.channelError);
      if (this.channel === channel) this.channel = undefined;
      await channel.close().catch(() => undefined);
      if (!this.model) this.lost();
    }
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reset();
  }

  private open(): Promise<ConfirmChannel> {
    if (this.channel) return Promise.resolve(this.channel);
    this.opening ??= this.connectChannel().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async connectChannel(): Promise<ConfirmChannel> {
    if (this.closed) throw new Error('the worker is shutting down');
    const model = this.model ?? (await this.connectModel());
    const channel = await model.createConfirmChannel();
    this.channelError = undefined;
    channel.on('error', (error: Error) => (this.channelError = error));
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
    });
    this.channel = channel;
    return channel;
  }

  private async connectModel(): Promise<ChannelModel> {
    const problem = await this.hostProblem();
    if (problem) throw new Error(problem);
    const model = await connect(this.url, {
      timeout: CONNECT_TIMEOUT_MS,
      clientProperties: { connection_name: 'messaging-gateway event sink' },
    });
    model.on('error', () => undefined);
    model.on('close', () => {
      if (this.model !== model) return;
      this.model = undefined;
      this.channel = undefined;
    });
    if (this.closed) {
      await model.close().catch(() => undefined);
      throw new Error('the worker is shutting down');
    }
    this.model = model;
    return model;
  }

  /** The connection failed: find out when the broker is back (the connection made then is kept for the next publish). */
  private lost(): void {
    if (this.probing || this.closed) return;
    this.probing = true;
    probeUntilUp(
      async () => {
        await this.open();
      },
      () => this.closed,
      () => {
        this.probing = false;
        this.hooks.recovered();
      },
    );
  }

  private async reset(): Promise<void> {
    const model = this.model;
    this.model = undefined;
    this.channel = undefined;
    // Bounded: closing waits for the broker's close-ok, which a hung broker never sends.
    if (model) await within(model.close(), CLOSE_TIMEOUT_MS, 'closing the AMQP connection').catch(() => undefined);
    if (!this.closed) this.lost();
  }
}
