import { parseSseBlock, type SseMessage } from './sse';

/**
 * The page's live feeds over ONE WebSocket (`/dashboard/socket`). Each feed used to be its own Server-Sent Events
 * request, and a browser allows 6 HTTP/1.1 connections per host: with two or three console tabs open, the next page
 * never loaded. A WebSocket is not counted against that limit, and one per tab carries every feed of the page.
 *
 * The socket exists only while the page is visible and has feeds: a hidden tab, or a page put in the back/forward
 * cache (`pagehide`), holds no connection. On return each feed resumes where it stopped (the id of the last message
 * it saw, the `Last-Event-ID` of the SSE routes), so nothing is lost in between.
 */

/** What a feed carries: the customer's instance statuses, or one instance's event log. */
export type LiveFeed =
  | { stream: 'instances' }
  | {
      stream: 'events';
      instanceId: string;
      /** Where to start when the feed has seen no message yet (absent: with the next new event). */
      after?: () => number | undefined;
    };

export interface LiveFeedOptions {
  signal: AbortSignal;
  onMessage: (message: SseMessage) => void;
  /** The feed is live (again): what changed while it was down may need one read. */
  onOpen?: () => void;
  onDrop?: () => void;
}

type ServerMessage =
  | { id: string; type: 'open' }
  | { id: string; type: 'frame'; frame: string }
  | { id: string; type: 'end' }
  | { id: string; type: 'error'; status: number; detail: string };

interface Subscription {
  feed: LiveFeed;
  options: LiveFeedOptions;
  /** The id of the last message seen: where the feed resumes. */
  lastEventId?: string;
  /** Set while the server has ended or refused it: it is asked for again after `retryTimer`. */
  retryTimer?: ReturnType<typeof setTimeout>;
  retryPauseMs: number;
}

const SOCKET_PATH = '/dashboard/socket';
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 10_000;
/** Navigating between pages unsubscribes then subscribes again: the socket stays open across that moment. */
const IDLE_CLOSE_MS = 2_000;

class LiveSocket {
  private readonly subscriptions = new Map<string, Subscription>();
  private socket: WebSocket | null = null;
  private nextId = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectPauseMs = FIRST_PAUSE_MS;
  private listening = false;

  follow(feed: LiveFeed, options: LiveFeedOptions): void {
    if (options.signal.aborted) return;
    this.listen();
    const id = `f${(this.nextId += 1)}`;
    const subscription: Subscription = { feed, options, retryPauseMs: FIRST_PAUSE_MS };
    this.subscriptions.set(id, subscription);
    options.signal.addEventListener('abort', () => this.unfollow(id), { once: true });
    clearTimeout(this.idleTimer);
    if (this.socket?.readyState === WebSocket.OPEN) this.sendSubscribe(id, subscription);
    else this.connect();
  }

  private unfollow(id: string): void {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return;
    clearTimeout(subscription.retryTimer);
    this.subscriptions.delete(id);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'unsubscribe', id }));
    if (this.subscriptions.size === 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => {
        if (this.subscriptions.size === 0) this.disconnect();
      }, IDLE_CLOSE_MS);
    }
  }

  /** Page lifecycle: no connection while hidden or cached, back (and resumed) once shown again. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.disconnect();
      else this.connectNow();
    });
    window.addEventListener('pagehide', () => this.disconnect());
    window.addEventListener('pageshow', () => {
      if (document.visibilityState !== 'hidden') this.connectNow();
    });
  }

  private connectNow(): void {
    this.reconnectPauseMs = FIRST_PAUSE_MS;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.connect();
  }

  /**
   * Opens the socket before any page subscribes, so the handshake overlaps the page's first reads; closed again if
   * nothing subscribes within the idle pause.
   */
  preconnect(): void {
    if (this.socket || document.visibilityState === 'hidden') return;
    this.listen();
    this.open();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.subscriptions.size === 0) this.disconnect();
    }, IDLE_CLOSE_MS);
  }

  private connect(): void {
    if (this.socket || this.reconnectTimer !== undefined) return;
    if (this.subscriptions.size === 0 || document.visibilityState === 'hidden') return;
    this.open();
  }

  private open(): void {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${window.location.host}${SOCKET_PATH}`);
    this.socket = socket;
    socket.onopen = () => {
      this.reconnectPauseMs = FIRST_PAUSE_MS;
      for (const [id, subscription] of this.subscriptions) this.sendSubscribe(id, subscription);
    };
    socket.onmessage = (event: MessageEvent<string>) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropAll();
      this.scheduleReconnect();
    };
  }

  /** Closes the socket on purpose (hidden, cached, no feeds); the feeds stay registered and resume on reconnect. */
  private disconnect(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.onclose = null;
    socket.close(1000, 'page hidden');
    this.dropAll();
  }

  private dropAll(): void {
    for (const subscription of this.subscriptions.values()) {
      clearTimeout(subscription.retryTimer);
      subscription.retryTimer = undefined;
      subscription.options.onDrop?.();
    }
  }

  private scheduleReconnect(): void {
    if (this.subscriptions.size === 0) return;
    const pause = this.reconnectPauseMs;
    this.reconnectPauseMs = Math.min(pause * 2, MAX_PAUSE_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, pause);
  }

  private sendSubscribe(id: string, subscription: Subscription): void {
    const { feed } = subscription;
    const message =
      feed.stream === 'instances'
        ? { type: 'subscribe', id, stream: 'instances' }
        : {
            type: 'subscribe',
            id,
            stream: 'events',
            instanceId: feed.instanceId,
            ...(subscription.lastEventId !== undefined ? { lastEventId: subscription.lastEventId } : { after: feed.after?.() }),
          };
    this.socket?.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      return;
    }
    const subscription = this.subscriptions.get(message.id);
    if (!subscription) return;
    if (message.type === 'open') {
      subscription.retryPauseMs = FIRST_PAUSE_MS;
      subscription.options.onOpen?.();
    } else if (message.type === 'frame') {
      const parsed = parseSseBlock(message.frame.replace(/\r\n?/g, '\n'));
      if (!parsed) return;
      if (parsed.id !== undefined) subscription.lastEventId = parsed.id;
      subscription.options.onMessage(parsed);
    } else {
      // Ended (the instance was deleted, the server is restarting) or refused: ask again after a growing pause.
      subscription.options.onDrop?.();
      const pause = subscription.retryPauseMs;
      subscription.retryPauseMs = Math.min(pause * 2, MAX_PAUSE_MS);
      subscription.retryTimer = setTimeout(() => {
        subscription.retryTimer = undefined;
        if (this.subscriptions.get(message.id) === subscription && this.socket?.readyState === WebSocket.OPEN) {
          this.sendSubscribe(message.id, subscription);
        }
      }, pause);
    }
  }
}

const liveSocket = new LiveSocket();

/** Opens the page's socket ahead of its feeds (api/prefetch.ts, at start, for a signed-in page). */
export function preconnectLiveSocket(): void {
  liveSocket.preconnect();
}

/** Follows a live feed over the page's socket until the signal aborts; reconnects and resumes by itself. */
export function followLiveFeed(feed: LiveFeed, options: LiveFeedOptions): void {
  liveSocket.follow(feed, options);
}
