import { plainToInstance } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { validationOutcome } from '../../common/validation-outcome.testing';
import { PeopleList } from './people-list';

class Members {
  @PeopleList({ atLeastOne: true })
  participants!: string[];
}

class MaybeMembers {
  @IsOptional()
  @PeopleList({ atLeastOne: false })
  participants?: string[];
}

const ANN = '447700900401';
const GROUP = '120363000000000001@g.us';
const many = (count: number) => Array.from({ length: count }, (_, n) => `4477009${String(n).padStart(5, '0')}`);

describe('PeopleList', () => {
  it.each([
    ['numbers, JIDs and LIDs', Members, { participants: [ANN, `${ANN}@s.whatsapp.net`, '900000000401@lid'] }, 'ok'],
    ['1024 people', Members, { participants: many(1024) }, 'ok'],
    ['no list where one is optional', MaybeMembers, {}, 'ok'],
    ['an empty list where one is optional', MaybeMembers, { participants: [] }, 'ok'],
    ['an empty list', Members, { participants: [] }, 'validation error: participants must name at least one person'],
    ['1025 people', Members, { participants: many(1025) }, 'validation error: participants must have at most 1024 items'],
    [
      'a group among people',
      Members,
      { participants: [ANN, GROUP] },
      'validation error: participants[1] must be a user JID or an international number',
    ],
    [
      'a bad entry where the list is optional',
      MaybeMembers,
      { participants: ['nobody'] },
      'validation error: participants[0] must be a user JID or an international number',
    ],
    ['numbers as JSON numbers', Members, { participants: [447700900401] }, 'invalid request body'],
    ['a string instead of a list', Members, { participants: ANN }, 'invalid request body'],
  ])('%s', async (_label, dto, body, detail) => {
    expect(await validationOutcome(dto, body)).toBe(detail);
  });

  it('hands the service JIDs', () => {
    expect(plainToInstance(Members, { participants: [`+${ANN}`, ` ${ANN}@s.whatsapp.net`] }).participants).toEqual([
      `${ANN}@s.whatsapp.net`,
      `${ANN}@s.whatsapp.net`,
    ]);
  });
});
