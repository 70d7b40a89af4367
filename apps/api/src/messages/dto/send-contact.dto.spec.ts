import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendContactDto } from './send-contact.dto';

const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const TO = '14155550123@s.whatsapp.net';
const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nFN:Jane Doe\nTEL;TYPE=CELL:+19876543210\nEND:VCARD';

describe('SendContactDto', () => {
  it.each<[string, unknown, string]>([
    ['a display name', { to: TO, displayName: 'Jane Doe' }, 'ok'],
    ['a vCard', { to: TO, vcard: VCARD }, 'ok'],
    ['a vCard with CRLF line ends', { to: TO, vcard: VCARD.replace(/\n/g, '\r\n') }, 'ok'],
    ['a display name and a vCard', { to: TO, displayName: 'Jane', vcard: VCARD }, 'ok'],
    ['neither display name nor vCard', { to: TO }, 'validation error: displayName or vcard is required'],
    ['an empty display name', { to: TO, displayName: '' }, 'validation error: displayName must not be empty'],
    ['a display name of 256 characters', { to: TO, displayName: x(256) }, 'ok'],
    ['a display name of 257 characters', { to: TO, displayName: x(257) }, 'validation error: displayName must be at most 256 characters'],
    [
      'a vCard that is not one',
      { to: TO, vcard: 'Jane Doe, +19876543210' },
      'validation error: vcard must be a vCard (BEGIN:VCARD ... END:VCARD)',
    ],
    [
      'a vCard without END',
      { to: TO, vcard: 'BEGIN:VCARD\nFN:Jane' },
      'validation error: vcard must be a vCard (BEGIN:VCARD ... END:VCARD)',
    ],
    [
      'a vCard of 65537 characters',
      { to: TO, vcard: `BEGIN:VCARD\nNOTE:${x(65537 - 22)}\nEND:VCARD` },
      'validation error: vcard must be at most 65536 characters',
    ],
    ['common send options', { to: TO, displayName: 'Jane', replyTo: '3EB0AB', isForwarded: true }, 'ok'],
    ['a phone field', { to: TO, displayName: 'Jane', phone: '+19876543210' }, 'validation error: property phone should not exist'],
    ['displayName as an object', { to: TO, displayName: { first: 'Jane' } }, 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendContactDto, input)).toBe(expected);
  });
});
