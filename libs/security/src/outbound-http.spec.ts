import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttp, OutboundHttpError, isPublicAddress } from './outbound-http';

describe('isPublicAddress', () => {
  it.each([
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback as URLs and sockets write it'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::8.8.8.8', 'IPv4-compatible, deprecated even when public'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00::1', 'unique local'],
    ['127.0.0.1', 'IPv4 loopback'],
    ['not-an-address', 'not an address at all'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14', '[2001:4860:4860::8888]'])(
    'accepts the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('OutboundHttp', () => {
  const outbound = new OutboundHttp({ allowPrivateNetworks: false, allowedHosts: [] });

  it('refuses IPv4-compatible IPv6 when the URL is saved and when it connects', async () => {
    await expect(outbound.assertReachable('http://[::127.0.0.1]/hook')).rejects.toThrow('::7f00:1 is not a public address');
    await expect(outbound.post('http://[::127.0.0.1]:9/hook', '{}', {}, { timeoutMs: 2000, maxResponseBytes: 10 })).rejects.toThrow(
      '::7f00:1 is not a public address',
    );
    await expect(outbound.fetchBytes('http://[::ffff:127.0.0.1]:9/a.png', 10, 2000)).rejects.toThrow(OutboundHttpError);
  });

  it('says the same of a name that does not resolve and one that resolves to a private address', async () => {
    const unresolvable = await outbound.assertReachable('http://no-such-host.invalid/').catch((error: Error) => error.message);
    const privateName = await outbound.assertReachable('http://localhost/').catch((error: Error) => error.message);
    expect(unresolvable).toBe('no-such-host.invalid does not resolve to a public address');
    expect(privateName).toBe('localhost does not resolve to a public address');
  });

  it('refuses a name resolving to a private address at connect time without naming the address', async () => {
    const server = http.createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const failure = await outbound
        .post(`http://localhost:${port}/hook`, '{}', {}, { timeoutMs: 2000, maxResponseBytes: 10 })
        .catch((error: Error) => error);
      expect(failure).toBeInstanceOf(OutboundHttpError);
      expect((failure as Error).message).toBe('localhost does not resolve to a public address');
    } finally {
      server.close();
    }
  });
});
