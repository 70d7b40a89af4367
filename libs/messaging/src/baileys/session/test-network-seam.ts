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
