import type { Agent as HttpsAgent } from 'node:https';
import { parseProxyUrl, ProxyHttpAgent, ProxyHttpsAgent, proxyDispatcher, type ProxyFailure } from '@app/security';
import type { Dispatcher } from 'undici';
import type { BaileysSettings } from './baileys-settings';

/**
 * How one socket of an instance reaches the network: direct, or everything through its proxy. Baileys takes three
 * handles, and with a proxy each of them tunnels: `agent` (the WebSocket, over which media re-upload requests go too),
 * `fetchAgent` (media uploads, Node's https) and the undici `dispatcher` (media, history blobs and picture downloads;
 * our own downloads of received media use it as well). A new route per socket, so a failure recorded belongs to it.
 */
export class NetworkRoute {
  /** The first tunnel the proxy refused to open since this route was made. */
  private failure: ProxyFailure | undefined;

  private constructor(
    readonly proxyUrl: string | undefined,
    /** Typed as Baileys declares it; the `ws` library takes any agent of the WebSocket URL's scheme (http for `ws:`). */
    readonly agent: HttpsAgent | undefined,
    readonly fetchAgent: HttpsAgent | undefined,
    readonly dispatcher: Dispatcher | undefined,
    private readonly closeables: { destroy(): unknown }[],
  ) {}

  static direct(settings: BaileysSettings): NetworkRoute {
    return new NetworkRoute(undefined, undefined, undefined, settings.mediaDispatcher, []);
  }

  static through(proxyUrl: string, settings: BaileysSettings): NetworkRoute {
    const proxy = parseProxyUrl(proxyUrl);
    // The agents report to the route they belong to, which exists only once they do.
    const routes: NetworkRoute[] = [];
    const onFailure = (failure: ProxyFailure) => routes[0]?.recordFailure(failure);
    const secureSocket = new URL(settings.webSocketUrl).protocol === 'wss:';
    const uploads = new ProxyHttpsAgent(proxy, { onFailure });
    const socketAgent = secureSocket ? uploads : (new ProxyHttpAgent(proxy, { onFailure }) as unknown as HttpsAgent);
    const downloads = proxyDispatcher(proxy, onFailure);
    const dispatcher = settings.routeMedia ? settings.routeMedia(downloads) : downloads;
    routes.push(new NetworkRoute(proxyUrl, socketAgent, uploads, dispatcher, [uploads, socketAgent, downloads]));
    return routes[0];
  }

  takeFailure(): ProxyFailure | undefined {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  /** Lets go of the route's idle connections (the proxy's tunnels); requests still running finish or fail. */
  close(): void {
    for (const closeable of this.closeables) void Promise.resolve(closeable.destroy()).catch(() => undefined);
  }

  private recordFailure(failure: ProxyFailure): void {
    this.failure ??= failure;
  }
}
