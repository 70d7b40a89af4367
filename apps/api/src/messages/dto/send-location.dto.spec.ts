import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendLocationDto } from './send-location.dto';

const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const TO = '14155550123@s.whatsapp.net';
const at = (latitude: unknown, longitude: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  to: TO,
  latitude,
  longitude,
  ...extra,
});

describe('SendLocationDto', () => {
  it.each<[string, unknown, string]>([
    ['coordinates', at(51.5034, -0.1276), 'ok'],
    ['latitude 90', at(90, 0), 'ok'],
    ['latitude -90', at(-90, 0), 'ok'],
    ['latitude 90.000001', at(90.000001, 0), 'validation error: latitude must be from -90 to 90'],
    ['latitude -91', at(-91, 0), 'validation error: latitude must be from -90 to 90'],
    ['longitude 180', at(0, 180), 'ok'],
    ['longitude -180', at(0, -180), 'ok'],
    ['longitude 180.5', at(0, 180.5), 'validation error: longitude must be from -180 to 180'],
    ['longitude -181', at(0, -181), 'validation error: longitude must be from -180 to 180'],
    ['both out of range', at(100, 200), 'validation error: latitude must be from -90 to 90; longitude must be from -180 to 180'],
    ['no latitude', { to: TO, longitude: 0 }, 'validation error: latitude is required'],
    ['no longitude', { to: TO, latitude: 0 }, 'validation error: longitude is required'],
    [
      'name, address and url',
      at(1, 2, { name: 'Big Ben', address: 'Westminster, London', url: 'https://maps.example.com/?q=Big+Ben' }),
      'ok',
    ],
    ['name of 256 characters', at(1, 2, { name: x(256) }), 'ok'],
    ['name of 257 characters', at(1, 2, { name: x(257) }), 'validation error: name must be at most 256 characters'],
    ['address of 1024 characters', at(1, 2, { address: x(1024) }), 'ok'],
    ['address of 1025 characters', at(1, 2, { address: x(1025) }), 'validation error: address must be at most 1024 characters'],
    ['a url that is not http', at(1, 2, { url: 'geo:51.5,-0.12' }), 'validation error: url must be an http or https URL'],
    ['ephemeralExpiration', at(1, 2, { ephemeralExpiration: '90d' }), 'ok'],
    [
      'a bad ephemeralExpiration',
      at(1, 2, { ephemeralExpiration: '1y' }),
      'validation error: ephemeralExpiration must be one of off, 24h, 7d, 90d',
    ],
    ['mentions (not taken by location)', at(1, 2, { mentions: [TO] }), 'validation error: property mentions should not exist'],
    ['replyTo (not taken by location)', at(1, 2, { replyTo: '3EB0AB' }), 'validation error: property replyTo should not exist'],
    ['latitude as a string', at('51.5', 0), 'invalid request body'],
    ['longitude as null', at(0, null), 'validation error: longitude is required'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendLocationDto, input)).toBe(expected);
  });
});
