import { AppError } from '@app/contracts';
import { boom } from '../testing/kit';
import { iqError } from '../testing/operations';
import { UNSEEN, networkCode, networkError } from './network-errors';

describe('network errors', () => {
  it('reads the code of an IQ error from its data, of a local Boom from its status', () => {
    expect(networkCode(iqError(403, 'forbidden'))).toBe(403);
    expect(networkCode(boom('App state key not present!', { statusCode: 400 }))).toBe(400);
    // An IQ error without a code attribute: Boom gets NaN as data and keeps 500.
    expect(networkCode(boom('item-not-found', { data: Number.NaN }))).toBe(404);
    expect(networkCode(new Error('plain'))).toBeUndefined();
  });

  it.each([
    [iqError(400, 'bad-request'), AppError.validation('the network refused the request (bad-request)')],
    [iqError(406, 'not-acceptable'), AppError.validation('the network refused the request (not-acceptable)')],
    [iqError(409, 'conflict'), AppError.validation('the network refused the request (conflict)')],
    [iqError(401, 'not-authorized'), AppError.forbidden('the network does not allow this account to do that (not-authorized)')],
    [iqError(403, 'forbidden'), AppError.forbidden('the network does not allow this account to do that (forbidden)')],
    [iqError(404, 'item-not-found'), new AppError('not_found')],
    [iqError(410, 'gone'), new AppError('not_found')],
    [iqError(429, 'rate-overlimit'), new AppError('rate_limited')],
    [boom('Connection Closed', { statusCode: 428 }), new AppError('instance_unavailable')],
  ])('maps %s', (error, expected) => {
    const mapped = networkError(error) as AppError;
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped.toBody()).toEqual(expected.toBody());
    expect(mapped.code).toBe(expected.code);
  });

  it('reports a missing app-state key as the instance not available yet, not as a bad request', () => {
    const expected = new AppError(
      'instance_unavailable',
      'instance not available: the phone has not shared its app-state key with this device yet; try again in a few seconds',
    );
    for (const error of [
      boom('App state key not present!', { statusCode: 400 }),
      boom('myAppStateKey ("AAAAAAAA") not present', { data: { isMissingKey: true } }),
    ]) {
      const mapped = networkError(error) as AppError;
      expect(mapped.toBody()).toEqual(expected.toBody());
      expect(mapped.toBody()).toEqual({ status: 503, detail: expected.detail });
    }
  });

  it("words a refusal in the operation's terms", () => {
    expect(networkError(iqError(401, 'not-authorized'), { forbidden: 'not a group admin' })).toEqual(
      AppError.forbidden('not a group admin'),
    );
    expect(networkError(iqError(403, 'forbidden'), UNSEEN)).toEqual(new AppError('not_found'));
    expect(networkError(iqError(406, 'not-acceptable'), { notFound: [406] })).toEqual(new AppError('not_found'));
  });

  it('leaves faults that say nothing about the request as they are', () => {
    const timeout = boom('Timed Out', { statusCode: 408 });
    const fault = iqError(500, 'internal-server-error');
    const plain = new TypeError('boom');
    const known = AppError.forbidden('x');
    expect(networkError(timeout)).toBe(timeout);
    expect(networkError(fault)).toBe(fault);
    expect(networkError(plain)).toBe(plain);
    expect(networkError(known)).toBe(known);
  });
});
