import { deliveryClass } from './delivery-metrics';

describe('deliveryClass', () => {
  it('names each kind of answer, and each error text the outbound client writes', () => {
    const cases: [number | null, string | null][] = [
      [200, null],
      [204, null],
      [410, 'receiver answered 410'],
      [302, 'receiver answered 302 (redirects are not followed)'],
      [429, 'receiver answered 429'],
      [503, 'receiver answered 503'],
      [null, 'no answer from hooks.example:443 within 15000 ms'],
      [null, 'no answer within 15000 ms'],
      [null, '10.0.0.1 is not a public address'],
      [null, 'hooks.internal does not resolve to a public address'],
      [null, 'content is more than the 65536 bytes allowed'],
      [null, 'connect ECONNREFUSED 127.0.0.1:9'],
    ];
    expect(cases.map(([status, error]) => deliveryClass(status, error))).toEqual([
      'delivered',
      'delivered',
      'gone',
      'http_3xx',
      'http_4xx',
      'http_5xx',
      'timeout',
      'timeout',
      'refused_address',
      'refused_address',
      'too_large',
      'network_error',
    ]);
    expect(deliveryClass(null, 'the instance is in pull mode', true)).toBe('skipped');
  });
});
