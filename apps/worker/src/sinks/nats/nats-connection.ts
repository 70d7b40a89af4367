import { connect, Events, headers, type ConnectionOptions, type JetStreamClient, type NatsConnection as NatsClient } from 'nats';
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
/** A stream acks in milliseconds; longer means the server is gone (the client buffers while it reconnects). */
const ACK_TIMEOUT_MS = 5_000;

/**
 * NATS JetStream: one connection per broker URL (the client reconnects by itself), each event published with
 * `Nats-Msg-Id` = event id and awaited until the stream acknowledges it. A republished event (after a lost ack, a
 * restart) is dropped by the stream's duplicate window, so within it the stream holds each event once. Publishes of one
 * instance go out in order on the one connection; a stream must cover the subject (otherwise: "no responders").
 */
export class NatsJetStreamConnection implements BrokerConnection {
  private connection: NatsClient | undefined;
  private jetstream: JetStreamClient | undefined;
  private opening: Promise<JetStreamClient> | undefined;
  private probing = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly hooks: BrokerConnectionHooks,
    private readonly hostProblem: () => Promise<string | null>,
  ) {}

  async publish(settings: EventSinkSettings, events: readonly EventEnvelope[]): Promise<PublishResult> {
    if (settings.kind !== 'nats') return { published: 0, error: `a ${settings.kind} sink cannot publish through NATS` };
    let jetstream: JetStreamClient;
    try {
      jetstream = await this.open();
    } catch (error) {
      this.lost();
      return { published: 0, error: `cannot connect to the broker: ${describe(error)}` };
    }
    const acks = events.map((envelope) => {
      const header = headers();
      header.set('X-Instance-Id', envelope.instanceId);
      header.set('X-Event-Type', envelope.eventType);
      return jetstream.publish(renderSinkTemplate(settings.subject, envelope), sinkBody(envelope), {
        msgID: envelope.eventId,
        headers: header,
        timeout: ACK_TIMEOUT_MS,
      });
    });
    try {
      return leadingSuccesses(await within(Promise.allSettled(acks), ACK_TIMEOUT_MS + 1_000, 'waiting for JetStream acks'));
    } catch (error) {
      return { published: 0, error: describe(error) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    this.jetstream = undefined;
    // Bounded: a connection to a broker that is gone would otherwise wait for its reconnects.
    await within(connection?.close() ?? Promise.resolve(), 2_000, 'closing the NATS connection').catch(() => undefined);
  }

  private open(): Promise<JetStreamClient> {
    if (this.jetstream) return Promise.resolve(this.jetstream);
    this.opening ??= this.connect().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async connect(): Promise<JetStreamClient> {
    if (this.closed) throw new Error('the worker is shutting down');
    const problem = await this.hostProblem();
    if (problem) throw new Error(problem);
    const connection = await connect(connectionOptions(this.url));
    if (this.closed) {
      await connection.close().catch(() => undefined);
      throw new Error('the worker is shutting down');
    }
    this.connection = connection;
    this.jetstream = connection.jetstream();
    void this.watch(connection);
    return this.jetstream;
  }

  /** The client reconnects by itself; a reconnect after a disconnect is the broker coming back. */
  private async watch(connection: NatsClient): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === Events.Reconnect) this.hooks.recovered();
    }
    // Closed for good (only `close()` does that, with reconnects unlimited): the next publish connects anew.
    if (this.connection === connection) {
      this.connection = undefined;
      this.jetstream = undefined;
    }
  }

  /** The first connection failed: find out when the broker is there. */
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
}

/** Credentials come from the URL: user and password, or a user alone as a token. `tls://` asks for TLS. */
function connectionOptions(raw: string): ConnectionOptions {
  const url = new URL(raw);
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    servers: [`${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || '4222'}`],
    ...(user && pass ? { user, pass } : user ? { token: user } : {}),
    ...(url.protocol === 'tls:' ? { tls: {} } : {}),
    name: 'messaging-gateway event sink',
    timeout: CONNECT_TIMEOUT_MS,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  };
}
