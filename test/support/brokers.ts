import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as amqpConnect, type ChannelModel, type Channel, type ConsumeMessage } from 'amqplib';
import { connect as natsConnect, nanos, type NatsConnection, type JetStreamManager, type StoredMsg } from 'nats';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/** The project machines' shared brokers (.ci/run installs and starts them where missing); tests use their own names on them and remove them. */
export const SHARED_RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';
export const SHARED_NATS_URL = 'nats://127.0.0.1:4222';

const suffix = () => randomBytes(4).toString('hex');

/** A RabbitMQ topic exchange of the test's own with one queue bound to everything; the messages as consumed. */
export class RabbitExchange {
  readonly received: ConsumeMessage[] = [];

  private constructor(
    private readonly model: ChannelModel,
    private readonly channel: Channel,
    readonly exchange: string,
    readonly queue: string,
  ) {}

  static async create(url = SHARED_RABBITMQ_URL, label = 'sinks'): Promise<RabbitExchange> {
    const model = await amqpConnect(url);
    const channel = await model.createChannel();
    const id = suffix();
    const exchange = `test.${label}.${id}`;
    const queue = `test.${label}.${id}.all`;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: true });
    await channel.bindQueue(queue, exchange, '#');
    const scope = new RabbitExchange(model, channel, exchange, queue);
    await channel.consume(queue, (message) => message && scope.received.push(message), { noAck: true });
    return scope;
  }

  bodies(): string[] {
    return this.received.map((message) => message.content.toString('utf8'));
  }

  async remove(): Promise<void> {
    await this.channel.deleteQueue(this.queue).catch(() => undefined);
    await this.channel.deleteExchange(this.exchange).catch(() => undefined);
    await this.model.close().catch(() => undefined);
  }
}

/** A JetStream stream of the test's own (its subjects `<prefix>.>`), read back message by message. */
export class NatsStream {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
    readonly name: string,
    readonly prefix: string,
  ) {}

  static async create(url = SHARED_NATS_URL): Promise<NatsStream> {
    const connection = await natsConnect({ servers: new URL(url).host, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
    const manager = await connection.jetstreamManager();
    const id = suffix();
    const name = `TEST_SINKS_${id.toUpperCase()}`;
    const prefix = `test.sinks.${id}`;
    await manager.streams.add({ name, subjects: [`${prefix}.>`], duplicate_window: nanos(120_000) });
    return new NatsStream(connection, manager, name, prefix);
  }

  /** Every message of the stream, in stream order. */
  async messages(): Promise<StoredMsg[]> {
    const info = await this.manager.streams.info(this.name);
    const out: StoredMsg[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
      out.push(await this.manager.streams.getMessage(this.name, { seq }));
    }
    return out;
  }

  async bodies(): Promise<string[]> {
    return (await this.messages()).map((message) => message.string());
  }

  async remove(): Promise<void> {
    await this.manager.streams.delete(this.name).catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}

/** A NATS server with JetStream of the test's own, on a free port with its own store: stopped and restarted by the test. */
export class PrivateNatsServer {
  private process: ChildProcess | undefined;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'sinks-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts it (again, with the same store) and waits until it answers. */
  async restart(): Promise<void> {
    const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], { stdio: 'ignore' });
    this.process = child;
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const probe = await natsConnect({ servers: `127.0.0.1:${this.port}`, reconnect: false, timeout: 500 });
        await probe.jetstreamManager();
        await probe.close();
        return;
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('private nats-server did not start', { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Stops it as an operator would (SIGTERM), and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
