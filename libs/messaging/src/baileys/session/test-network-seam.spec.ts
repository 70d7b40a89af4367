import type { BaileysLibrary } from '../baileys-library';
import { libraryLoader, testNetworkRootKey } from './test-network-seam';

const KEY = 'ab'.repeat(32);

describe('the fake-network test seam', () => {
  it('is off unless BAILEYS_TEST_NETWORK_ROOT_KEY is set', () => {
    expect(testNetworkRootKey({}, 'wss://web.whatsapp.com/ws/chat')).toBeUndefined();
    expect(testNetworkRootKey({ BAILEYS_TEST_NETWORK_ROOT_KEY: ' ' }, 'wss://web.whatsapp.com/ws/chat')).toBeUndefined();
  });

  it('accepts a 32-byte hex key only with a loopback network address', () => {
    expect(testNetworkRootKey({ BAILEYS_TEST_NETWORK_ROOT_KEY: KEY }, 'ws://127.0.0.1:4000/ws/chat')).toEqual(Buffer.from(KEY, 'hex'));
    expect(testNetworkRootKey({ BAILEYS_TEST_NETWORK_ROOT_KEY: KEY }, 'ws://localhost:4000/ws/chat')).toEqual(Buffer.from(KEY, 'hex'));
    expect(() => testNetworkRootKey({ BAILEYS_TEST_NETWORK_ROOT_KEY: KEY }, 'wss://web.whatsapp.com/ws/chat')).toThrow(
      'BAILEYS_TEST_NETWORK_ROOT_KEY is for tests against a fake network: BAILEYS_WS_URL must then be a loopback address',
    );
    expect(() => testNetworkRootKey({ BAILEYS_TEST_NETWORK_ROOT_KEY: 'abcd' }, 'ws://127.0.0.1:4000/ws/chat')).toThrow(
      'BAILEYS_TEST_NETWORK_ROOT_KEY must be 32 bytes written as 64 hex digits',
    );
  });

  it("replaces WhatsApp's root key in the loaded library only when enabled", async () => {
    const original = Buffer.from('14'.repeat(32), 'hex');
    const fakeLibrary = () =>
      ({ WA_CERT_DETAILS: { SERIAL: 0, ISSUER: 'WhatsAppLongTerm1', PUBLIC_KEY: original } }) as unknown as BaileysLibrary;
    const load = () => Promise.resolve(fakeLibrary());
    expect(libraryLoader(load, undefined)).toBe(load);
    expect((await libraryLoader(load, Buffer.from(KEY, 'hex'))()).WA_CERT_DETAILS.PUBLIC_KEY).toEqual(Buffer.from(KEY, 'hex'));
  });
});
