import { normaliseChatId } from './jid';
import { phoneNumberProblem, readPhoneNumber } from './phone-number';

describe('readPhoneNumber', () => {
  it.each([
    ['+44 7700 900123', '447700900123'],
    ['+1 (415) 555-0123', '14155550123'],
    ['(415) 555-0123', '4155550123'],
    ['1.415.555.0123', '14155550123'],
    ['0044 7700 900123', '447700900123'],
    ['00 1 415 555 0123', '14155550123'],
    ['+49/151/12345678', '4915112345678'],
    ['  447700900123\u00a0', '447700900123'],
    ['1234567', '1234567'],
  ])('reads %j as %s', (input, digits) => {
    expect(readPhoneNumber(input)).toEqual({ digits });
    expect(normaliseChatId(input)).toBe(`${digits}@s.whatsapp.net`);
  });

  it.each([
    ['+44 7700 abc 900123', "remove the letters 'abc'"],
    ['+44 7700 900123 ext', "remove the letters 'ext'"],
    ['+44 7700 900123#', "remove the characters '#'"],
    ['44 7700 + 900123', 'a + may only come first'],
    ['07700 900123', 'a leading 0 means a national number; write the country code instead (+44 7700 900123)'],
    ['+0 7700 900123', 'a country code never starts with 0'],
    ['+44 123', 'too short: 5 digits, an international number has 7 to 15'],
    ['+44 7700 900123 900123', 'too long: 18 digits, an international number has 7 to 15'],
    ['+', 'no digits: write the number with its country code (+44 7700 900123)'],
  ])('refuses %j: %s', (input, problem) => {
    expect(readPhoneNumber(input)).toEqual({ problem });
    expect(normaliseChatId(input)).toBeUndefined();
  });

  it('leaves JIDs and words without digits to the general wording of their rule', () => {
    expect(phoneNumberProblem('447700900123@g.us')).toBeUndefined();
    expect(phoneNumberProblem('nobody')).toBeUndefined();
    expect(phoneNumberProblem('12ab')).toBe("remove the letters 'ab'");
  });
});
