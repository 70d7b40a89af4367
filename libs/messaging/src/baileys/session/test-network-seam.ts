import { Agent, type Dispatcher } from 'undici';
import type { BaileysLibrary } from '../baileys-library';
import type { BaileysLibraryLoader } from './baileys-settings';

/**
 * The one test seam of the real-network driver. `BAILEYS_TEST_NETWORK_ROOT_KEY` (hex) is the root public key of the fake
 * WhatsApp network the end-to-end tests run (`test/support/protocol-network`): Baileys checks the server's certificate
 * chain against `WA_CERT_DETAILS.PUBLIC_KEY`, so with the fake's key in its place the unmodified library completes the
 * Noise handshake with the fake. It is not an operator setting: it is refused unless `BAILEYS_WS_URL` is a loopback
 * address, so it can never make the driver trust anything but a process on the same machine.
 */
const TEST_NETWORK_ROOT_KEY_VARIABLE = 'BAILEYS_TEST_NETWORK_ROOT_KEY';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** The fake network's root key when the seam is enabled; throws on a malformed key or a non-loopback network address. */
export function testNetworkRootKey(env: Record<string, string | undefined>, webSocketUrl: string): Buffer | undefined {
  const value = env[TEST_NETWORK_ROOT_KEY_VARIABLE]?.trim();
  if (!value) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new Error(`${TEST_NETWORK_ROOT_KEY_VARIABLE} must be 32 bytes written as 64 hex digits`);
  if (!LOOPBACK_HOSTS.includes(new URL(webSocketUrl).hostname)) {
    throw new Error(
      `${TEST_NETWORK_ROOT_KEY_VARIABLE} is for tests against a fake network: BAILEYS_WS_URL must then be a loopback address`,
    );
  }
  return Buffer.from(value, 'hex');
}

/** Loads Baileys and, when the seam is enabled, makes it trust the fake network's root key (before any socket exists). */
export function libraryLoader(load: () => Promise<BaileysLibrary>, rootKey: Buffer | undefined): BaileysLibraryLoader {
  if (!rootKey) return load;
  return async () => {
    const lib = await load();
    lib.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootKey);
    return lib;
  };
}

/**
 * The fake network's media server (`https://127.0.0.1:<port>`). WhatsApp's clients fetch what a message names by path
 * only (history blobs, external app-state patches) from the default media host, `mmg.whatsapp.net`; with this set
 * they fetch it from the fake's media server instead. Only together with the root-key seam, so only on loopback.
 */
const TEST_MEDIA_ORIGIN_VARIABLE = 'BAILEYS_TEST_MEDIA_ORIGIN';

/** The host rc14 downloads from when a message names no host (`DEF_MEDIA_HOST` in Utils/messages-media.js). */
const DEFAULT_MEDIA_HOST = 'mmg.whatsapp.net';

/** Sends requests for WhatsApp's default media host to the fake network's media server; leaves every other one alone. */
export class DefaultMediaHostRedirect extends Agent {
  /** `through`: the dispatcher requests then take (an instance's proxy); its own connections otherwise. */
  constructor(
    private readonly mediaOrigin: string,
    private readonly through?: Dispatcher,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    const redirected = origin?.host === DEFAULT_MEDIA_HOST ? { ...options, origin: this.mediaOrigin } : options;
    return this.through ? this.through.dispatch(redirected, handler) : super.dispatch(redirected, handler);
  }
}

/** The HTTP dispatcher Baileys fetches media with when the seam names a media server; undefined otherwise. */
export function testMediaDispatcher(env: Record<string, string | undefined>, webSocketUrl: string): Dispatcher | undefined {
  const origin = testMediaOrigin(env, webSocketUrl);
  return origin === undefined ? undefined : new DefaultMediaHostRedirect(origin);
}

/** The same redirect for an instance behind a proxy, composed with the proxy's dispatcher; undefined without the seam. */
export function testMediaRoute(
  env: Record<string, string | undefined>,
  webSocketUrl: string,
): ((through: Dispatcher) => Dispatcher) | undefined {
  const origin = testMediaOrigin(env, webSocketUrl);
  return origin === undefined ? undefined : (through) => new DefaultMediaHostRedirect(origin, through);
}

function testMediaOrigin(env: Record<string, string | undefined>, webSocketUrl: string): string | undefined {
  const value = env[TEST_MEDIA_ORIGIN_VARIABLE]?.trim();
  if (!value) return undefined;
  const origin = new URL(value);
  if (!testNetworkRootKey(env, webSocketUrl) || origin.protocol !== 'https:' || !LOOPBACK_HOSTS.includes(origin.hostname)) {
    throw new Error(
      `${TEST_MEDIA_ORIGIN_VARIABLE} is for tests against a fake network: it must be an https loopback address, with ${TEST_NETWORK_ROOT_KEY_VARIABLE} set`,
    );
  }
  return origin.origin;
}
