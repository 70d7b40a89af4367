import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { validationOutcome } from '../validation-outcome.testing';
import { GROUP_ID, USER_ID } from './input-rules';
import { Follows, NormalisedBy } from './rule.decorators';
import { REQUIRED } from './webhook.validators';

class Invite {
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(GROUP_ID)
  @Follows(GROUP_ID)
  groupId!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3, { message: 'must have at most 3 items' })
  @IsString({ each: true })
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  people?: string[];
}

const GROUP = '120363000000000001@g.us';

describe('Follows and NormalisedBy', () => {
  it.each([
    ['a valid body', { groupId: GROUP, people: ['447700900123', '900000000123@lid'] }, 'ok'],
    ['a field that breaks the rule', { groupId: '447700900123' }, 'validation error: groupId must be a group JID (<id>@g.us)'],
    [
      'a list, naming the first element that breaks it',
      { groupId: GROUP, people: ['447700900123', 'ann', GROUP] },
      'validation error: people[1] must be a user JID or an international number',
    ],
    [
      'several fields, in the order of the class',
      { groupId: 'x', people: [GROUP] },
      'validation error: groupId must be a group JID (<id>@g.us); people[0] must be a user JID or an international number',
    ],
    ['a missing field, as only required', {}, 'validation error: groupId is required'],
    ['a wrong JSON type, as an invalid body', { groupId: GROUP, people: [5] }, 'invalid request body'],
    [
      'a list over its size, with its own rule',
      { groupId: GROUP, people: ['1234567', '2345678', '3456789', '4567890'] },
      'validation error: people must have at most 3 items',
    ],
  ])('%s', async (_label, body, detail) => {
    expect(await validationOutcome(Invite, body)).toBe(detail);
  });

  it('hands services the normalised values, lists element by element, and leaves bad values as sent', () => {
    expect(plainToInstance(Invite, { groupId: ` ${GROUP}`, people: ['+447700900123', 'ann', 7] })).toEqual({
      groupId: GROUP,
      people: ['447700900123@s.whatsapp.net', 'ann', 7],
    });
  });
});
