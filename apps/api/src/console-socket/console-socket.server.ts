import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from '@nestjs/common';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { AppError, type CustomerScope, type InstanceScope } from '@app/contracts';
import { InstanceStatusStreams } from '../account/instance-status-streams';
import { Authenticator } from '../auth/authenticator';
import { DashboardSessions } from '../auth/dashboard-sessions';
import type { ScopedRequest } from '../auth/scope';
import { EventStreamsService } from '../events/event-streams.service';
import { parseClientMessage, type SubscribeMessage } from './client-messages';
import { SocketStreamResponse, sendMessage } from './socket-stream-response';

/** Where the console opens its socket: under the console's own path, on the API's port. */
export const CONSOLE_SOCKET_PATH = '/dashboard/socket';
/** Subscriptions one socket may hold: a page has at most a few; more is a misbehaving client. */
const MAX_SUBSCRIPTIONS = 16;
/** Pings keep proxies from closing an idle socket and find clients that vanished without closing. */
const PING_EVERY_MS = 25_000;
/** Close code 1001: "going away" (the server is shutting down); the console reconnects, to another replica. */
const GOING_AWAY = 1001;
/** Close code 1008: the socket's sender broke the protocol. */
const POLICY_VIOLATION = 1008;

const attached = new WeakMap<NestExpressApplication, ConsoleSocketServer>();

interface ConsoleSocket {
  readonly ws: WebSocket;
  readonly customerId: string;
  /** The session id: it ties the socket's event streams to the session, exactly as the SSE routes do. */
  readonly sessionId: string;
  readonly subscriptions: Map<string, SocketStreamResponse>;
  alive: boolean;
}

/**
 * The console's one connection per tab (`GET /dashboard/socket`, a WebSocket). Browsers allow only 6 HTTP/1.1
 * connections per host and each live page held 1–2 Server-Sent Events streams, so a third tab hung; WebSockets do not
 * count against that limit. The socket carries every live feed of the page as subscriptions, each served by the same
 * service as the public SSE route (`/account/instances/stream`, `/events/stream`): one implementation of each feed.
 *
 * The upgrade is authenticated like the dashboard's own requests: the session cookie, and the `Origin` must be this
 * server's (a page of another origin cannot open it with the user's cookie).
 */
export class ConsoleSocketServer {
  private readonly logger = new Logger(ConsoleSocketServer.name);
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly sockets = new Set<ConsoleSocket>();
  private readonly ping: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly app: NestExpressApplication,
    private readonly auth: Authenticator,
    private readonly sessions: DashboardSessions,
    private readonly events: EventStreamsService,
    private readonly statuses: InstanceStatusStreams,
  ) {
    this.ping = setInterval(() => this.pingAll(), PING_EVERY_MS).unref();
  }

  /** The socket server of an app that configureApp set up. */
  static of(app: NestExpressApplication): ConsoleSocketServer | undefined {
    return attached.get(app);
  }

  static attach(app: NestExpressApplication): ConsoleSocketServer {
    const server = new ConsoleSocketServer(
      app,
      app.get(Authenticator),
      app.get(DashboardSessions),
      app.get(EventStreamsService),
      app.get(InstanceStatusStreams),
    );
    app
      .getHttpServer()
      .on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void server.upgrade(request, socket, head));
    attached.set(app, server);
    return server;
  }

  /** Number of open sockets in this process. */
  get size(): number {
    return this.sockets.size;
  }

  /** Shutdown: every socket closes at once ("going away"), and no new one opens. */
  closeAll(): void {
    this.closing = true;
    clearInterval(this.ping);
    for (const socket of [...this.sockets]) socket.ws.close(GOING_AWAY, 'server shutting down');
    // A client that does not answer the close handshake must not hold the process.
    setTimeout(() => this.sockets.forEach((socket) => socket.ws.terminate()), 500).unref();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    const path = (request.url ?? '').split('?')[0];
    if (path !== CONSOLE_SOCKET_PATH) return refuseUpgrade(socket, 404, 'not found');
    if (this.closing) return refuseUpgrade(socket, 503, 'shutting down');
    let customerId: string;
    let sessionId: string;
    try {
      const scoped = this.asExpressRequest(request);
      // Browsers always send Origin on a WebSocket upgrade; one without it is not the console.
      if (request.headers.origin === undefined) throw new AppError('csrf');
      this.sessions.assertSameOrigin(scoped);
      const { principal, viaSession } = await this.auth.authenticate(scoped);
      if (!viaSession || !scoped.dashboardSession) throw new AppError('unauthorized');
      customerId = principal.customerId;
      sessionId = scoped.dashboardSession.record.id;
    } catch (error) {
      const known = error instanceof AppError ? error : new AppError('internal');
      if (!(error instanceof AppError)) this.logger.error({ err: error }, 'console socket upgrade failed');
      return refuseUpgrade(socket, known.status, known.detail);
    }
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws, customerId, sessionId));
  }

  /** Express's request prototype gives the upgrade request `ip` and `protocol` under the app's `trust proxy` setting. */
  private asExpressRequest(request: IncomingMessage): ScopedRequest {
    const express = this.app.getHttpAdapter().getInstance() as ScopedRequest['app'];
    const scoped = Object.setPrototypeOf(request, (express as unknown as { request: object }).request) as ScopedRequest;
    scoped.app = express;
    return scoped;
  }

  private accept(ws: WebSocket, customerId: string, sessionId: string): void {
    const socket: ConsoleSocket = { ws, customerId, sessionId, subscriptions: new Map(), alive: true };
    this.sockets.add(socket);
    if (this.closing) ws.close(GOING_AWAY, 'server shutting down');
    ws.on('pong', () => (socket.alive = true));
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.sockets.delete(socket);
      for (const subscription of socket.subscriptions.values()) subscription.close();
      socket.subscriptions.clear();
    });
    ws.on('message', (data, isBinary) => {
      const message = isBinary ? null : parseClientMessage(textOf(data));
      if (!message) return ws.close(POLICY_VIOLATION, 'unreadable message');
      if (message.type === 'unsubscribe') {
        socket.subscriptions.get(message.id)?.close();
        socket.subscriptions.delete(message.id);
        return;
      }
      if (socket.subscriptions.has(message.id) || socket.subscriptions.size >= MAX_SUBSCRIPTIONS) {
        return ws.close(POLICY_VIOLATION, 'too many subscriptions or a repeated id');
      }
      void this.subscribe(socket, message);
    });
  }

  private async subscribe(socket: ConsoleSocket, message: SubscribeMessage): Promise<void> {
    const response = new SocketStreamResponse(socket.ws, message.id);
    socket.subscriptions.set(message.id, response);
    response.once('close', () => {
      if (socket.subscriptions.get(message.id) === response) socket.subscriptions.delete(message.id);
    });
    try {
      if (message.stream === 'instances') {
        const scope: CustomerScope = Object.freeze({ customerId: socket.customerId });
        await this.statuses.open(scope, response.asResponse());
      } else {
        // The same check as the instance routes' guard: the session's customer must own the instance.
        const principal = { kind: 'customer', customerId: socket.customerId, customerDisabled: false } as const;
        if (!(await this.auth.mayUseInstance(principal, message.instanceId))) throw new AppError('unauthorized');
        const scope: InstanceScope = Object.freeze({
          customerId: socket.customerId,
          instanceId: message.instanceId,
          via: 'dashboard_session',
        });
        await this.events.open(scope, socket.sessionId, { lastEventId: message.lastEventId, after: message.after }, response.asResponse());
      }
    } catch (error) {
      const known = error instanceof AppError ? error : new AppError('internal');
      if (!(error instanceof AppError)) this.logger.error({ err: error }, 'console socket subscription failed');
      sendMessage(socket.ws, { id: message.id, type: 'error', status: known.status, detail: known.detail });
      response.close();
    }
  }

  private pingAll(): void {
    for (const socket of this.sockets) {
      if (!socket.alive) {
        socket.ws.terminate();
        continue;
      }
      socket.alive = false;
      socket.ws.ping();
    }
  }
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}

/** An HTTP answer on the raw socket: the upgrade never became a WebSocket. */
function refuseUpgrade(socket: Duplex, status: number, detail: string): void {
  const body = JSON.stringify({ status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${detail}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
