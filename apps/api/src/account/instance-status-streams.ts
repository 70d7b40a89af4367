import type { ServerResponse } from 'node:http';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { CustomerScope, InstanceStatus } from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { KeyResolver } from '../auth/key-resolver';
import { KEEP_ALIVE_FRAME } from '../events/event-stream-cursor';
import { LiveStatusReader } from '../instance-state/live-status.reader';

const KEEP_ALIVE_MS = 15_000;
/** Only while Redis is not pushing changes (reconnecting, or CLIENT TRACKING refused): how often a stream re-reads. */
const FALLBACK_POLL_MS = 5_000;

/** One message of the stream. */
export interface InstanceStatusMessage {
  instanceId: string;
  status: InstanceStatus;
  /** The paired device; empty while unpaired. */
  deviceId: string;
  /** When the status was recorded (ISO 8601, UTC). */
  updatedAt: string;
}

interface OpenStream {
  readonly scope: CustomerScope;
  readonly response: ServerResponse;
  /** What was last sent per instance, so a rewrite of the same status sends nothing. */
  readonly sent: Map<string, string>;
  readonly close: () => void;
}

/**
 * The dashboard's live instance list: `GET /account/instances/stream`. Redis pushes every write of an instance's live
 * status to this process (key tracking, the same push `LiveStatusReader` relies on); the change is read once and sent
 * to the open streams of that instance's customer. Nothing polls the database per client: a stream reads the
 * customer's instances when it opens and again only after pushes may have been lost (and, only while Redis is not
 * pushing at all, every few seconds).
 */
@Injectable()
export class InstanceStatusStreams implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(InstanceStatusStreams.name);
  private readonly byCustomer = new Map<string, Set<OpenStream>>();
  private closing = false;

  constructor(
    private readonly statuses: LiveStatusReader,
    private readonly instances: InstanceRepository,
    private readonly keys: KeyResolver,
  ) {}

  onModuleInit(): void {
    this.statuses.onChange((instanceIds) => {
      if (this.byCustomer.size === 0) return;
      const work = instanceIds === null ? this.resyncAll() : this.announce(instanceIds);
      work.catch((error: unknown) => this.logger.warn({ err: error }, 'instance status stream update failed'));
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }

  /**
   * Shutdown: ends every open stream and opens no more. A stream never finishes by itself, so until it ends the HTTP
   * server cannot close and the process would wait out the whole shutdown deadline; clients reconnect to another replica.
   */
  closeAll(): void {
    this.closing = true;
    for (const streams of [...this.byCustomer.values()]) for (const stream of [...streams]) stream.close();
  }

  /** Opens the stream: the current status of every instance first, then one message per change. */
  async open(scope: CustomerScope, response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    if (this.closing) {
      // An empty stream that ends makes the client reconnect (to another replica); an error would not.
      response.end();
      return;
    }
    response.socket?.setNoDelay(true);
    response.flushHeaders();
    const keepAlive = setInterval(() => {
      if (!response.writableNeedDrain) response.write(KEEP_ALIVE_FRAME);
    }, KEEP_ALIVE_MS).unref();
    const fallback = setInterval(() => {
      if (this.statuses.isLive) return;
      this.resync([stream]).catch((error: unknown) => this.logger.warn({ err: error }, 'instance status stream re-read failed'));
    }, FALLBACK_POLL_MS).unref();
    const stream: OpenStream = {
      scope,
      response,
      sent: new Map(),
      close: () => {
        clearInterval(keepAlive);
        clearInterval(fallback);
        const streams = this.byCustomer.get(scope.customerId);
        streams?.delete(stream);
        if (streams?.size === 0) this.byCustomer.delete(scope.customerId);
        if (!response.writableEnded && !response.destroyed) response.end();
      },
    };
    let streams = this.byCustomer.get(scope.customerId);
    if (!streams) this.byCustomer.set(scope.customerId, (streams = new Set()));
    streams.add(stream);
    response.once('close', stream.close);
    await this.resync([stream]);
  }

  private async announce(instanceIds: string[]): Promise<void> {
    const owners = await Promise.all(instanceIds.map((id) => this.keys.ownerOf(id)));
    const watched = instanceIds.filter((_, index) => this.byCustomer.has(owners[index] ?? ''));
    if (watched.length === 0) return;
    const live = await this.statuses.readMany(watched);
    watched.forEach((instanceId, index) => {
      const status = live[index];
      if (!status) return;
      const owner = owners[instanceIds.indexOf(instanceId)] ?? '';
      for (const stream of this.byCustomer.get(owner) ?? []) {
        this.send(stream, {
          instanceId,
          status: status.status,
          deviceId: status.deviceId ?? '',
          updatedAt: new Date(status.updatedAt).toISOString(),
        });
      }
    });
  }

  private async resyncAll(): Promise<void> {
    await this.resync([...this.byCustomer.values()].flatMap((streams) => [...streams]));
  }

  /** The live status (else the recorded one) of each of the stream's customer's instances; unchanged ones are not repeated. */
  private async resync(streams: OpenStream[]): Promise<void> {
    for (const stream of streams) {
      const recorded = await this.instances.statuses(stream.scope);
      const live = await this.statuses.readMany(recorded.map((instance) => instance.id));
      recorded.forEach((instance, index) => {
        const current = live[index];
        this.send(stream, {
          instanceId: instance.id,
          status: current?.status ?? instance.status,
          deviceId: (current ? current.deviceId : instance.deviceId) ?? '',
          updatedAt: new Date(current?.updatedAt ?? Date.now()).toISOString(),
        });
      });
    }
  }

  private send(stream: OpenStream, message: InstanceStatusMessage): void {
    const fingerprint = `${message.status}|${message.deviceId}`;
    if (stream.sent.get(message.instanceId) === fingerprint) return;
    if (stream.response.writableEnded || stream.response.destroyed) return;
    stream.sent.set(message.instanceId, fingerprint);
    stream.response.write(`data: ${JSON.stringify(message)}\n\n`);
  }
}
