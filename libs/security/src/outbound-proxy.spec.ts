import { maskProxyUrl, parseProxyUrl, proxyUrlWrite } from './outbound-proxy';

describe('parseProxyUrl', () => {
  it('reads http and socks5 proxies with and without credentials (percent-escapes decoded)', () => {
    expect(parseProxyUrl('http://127.0.0.1:3128')).toEqual({ scheme: 'http', host: '127.0.0.1', port: 3128 });
    expect(parseProxyUrl('socks5://al%40ce:p%3Ass@proxy.example:1080')).toEqual({
      scheme: 'socks5',
      host: 'proxy.example',
      port: 1080,
      username: 'al@ce',
      password: 'p:ss',
    });
    expect(parseProxyUrl('http://[::1]:8080')).toEqual({ scheme: 'http', host: '::1', port: 8080 });
  });

  it.each([
    ['https://proxy.example:443', 'must use one of the schemes http, socks5'],
    ['socks4://proxy.example:1080', 'must use one of the schemes http, socks5'],
    ['http://proxy.example', 'must name the proxy port, e.g. :3128'],
    ['http://proxy.example:3128/x', 'must end after host:port (no path, query or fragment)'],
    ['http://proxy.example:3128?a=1', 'must end after host:port (no path, query or fragment)'],
    ['http://:secret@proxy.example:3128', 'must name a user when it has a password'],
    ['proxy.example:3128', 'must use one of the schemes http, socks5'],
    ['', 'must be a URL such as http://user:password@proxy.example:3128 or socks5://proxy.example:1080'],
  ])('refuses %s: %s', (raw, message) => {
    expect(() => parseProxyUrl(raw)).toThrow(message);
  });
});

describe('maskProxyUrl and proxyUrlWrite', () => {
  const stored = 'http://alice:s3cret@proxy.example:3128';

  it('shows the user and never the password', () => {
    expect(maskProxyUrl(stored)).toBe('http://alice:…@proxy.example:3128');
    expect(maskProxyUrl('socks5://proxy.example:1080')).toBe('socks5://proxy.example:1080');
    expect(maskProxyUrl(null)).toBe('');
  });

  it('keeps the stored URL when its mask comes back, refuses any other mask, clears on empty', () => {
    expect(proxyUrlWrite('http://alice:…@proxy.example:3128', stored)).toEqual({ kind: 'keep' });
    expect(proxyUrlWrite('http://alice:…@other.example:3128', stored)).toEqual({ kind: 'invalid' });
    expect(proxyUrlWrite('http://alice:…@proxy.example:3128', null)).toEqual({ kind: 'invalid' });
    expect(proxyUrlWrite('', stored)).toEqual({ kind: 'clear' });
    expect(proxyUrlWrite('socks5://proxy.example:1080', stored)).toEqual({ kind: 'set', value: 'socks5://proxy.example:1080' });
  });
});
