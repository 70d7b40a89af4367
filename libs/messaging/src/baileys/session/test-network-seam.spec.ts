import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaileysLibrary } from '../baileys-library';
import { DefaultMediaHostRedirect, libraryLoader, testMediaDispatcher, testNetworkRootKey } from './test-network-seam';

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

describe("the fake network's media origin", () => {
  const withRootKey = { BAILEYS_TEST_NETWORK_ROOT_KEY: KEY };

  it('is off unless BAILEYS_TEST_MEDIA_ORIGIN is set', () => {
    expect(testMediaDispatcher(withRootKey, 'ws://127.0.0.1:4000/ws/chat')).toBeUndefined();
  });

  it('needs the root-key seam and an https loopback origin', () => {
    const refused =
      'BAILEYS_TEST_MEDIA_ORIGIN is for tests against a fake network: it must be an https loopback address, with BAILEYS_TEST_NETWORK_ROOT_KEY set';
    const local = 'ws://127.0.0.1:4000/ws/chat';
    expect(() => testMediaDispatcher({ BAILEYS_TEST_MEDIA_ORIGIN: 'https://127.0.0.1:4443' }, local)).toThrow(refused);
    expect(() => testMediaDispatcher({ ...withRootKey, BAILEYS_TEST_MEDIA_ORIGIN: 'https://mmg.example.com' }, local)).toThrow(refused);
    expect(() => testMediaDispatcher({ ...withRootKey, BAILEYS_TEST_MEDIA_ORIGIN: 'http://127.0.0.1:4443' }, local)).toThrow(refused);
    expect(testMediaDispatcher({ ...withRootKey, BAILEYS_TEST_MEDIA_ORIGIN: 'https://127.0.0.1:4443' }, local)).toBeInstanceOf(
      DefaultMediaHostRedirect,
    );
  });

  it("sends requests for WhatsApp's default media host to the fake's media server, and no others", async () => {
    const served: string[] = [];
    const server = createServer((request, response) => {
      served.push(`${request.headers.host} ${request.url}`);
      response.end('blob');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Plain HTTP here so the test needs no certificate: the redirect keeps the path and swaps only the origin.
    const dispatcher = new DefaultMediaHostRedirect(`http://127.0.0.1:${port}`);
    try {
      const blob = await fetch('https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4', { dispatcher });
      expect(await blob.text()).toBe('blob');
      const other = await fetch(`http://127.0.0.1:${port}/other`, { dispatcher });
      expect(other.status).toBe(200);
      expect(served).toEqual([`127.0.0.1:${port} /v/t62.7118-24/abc.enc?ccb=11-4`, `127.0.0.1:${port} /other`]);
    } finally {
      await dispatcher.close();
      server.close();
    }
  });
});
