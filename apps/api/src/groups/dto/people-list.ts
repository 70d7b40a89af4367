import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString } from 'class-validator';
import { Follows, NormalisedBy, USER_ID } from '../../common/validators';

const MAX_PARTICIPANTS = 1024;

/**
 * A body's list of people (groups and communities): user JIDs or international numbers, at most 1024, normalised to
 * JIDs for the service; a bad entry is named by its index. `atLeastOne` also refuses the empty list.
 */
export function PeopleList({ atLeastOne }: { atLeastOne: boolean }): PropertyDecorator {
  const stack: PropertyDecorator[] = [
    IsArray(),
    ...(atLeastOne ? [ArrayMinSize(1, { message: 'must name at least one person' })] : []),
    ArrayMaxSize(MAX_PARTICIPANTS, { message: `must have at most ${MAX_PARTICIPANTS} items` }),
    IsString({ each: true }),
    NormalisedBy(USER_ID),
    Follows(USER_ID),
  ];
  // Applied bottom-up, as a stack written on the property would be, so the rules report in the same order.
  return applyDecorators(...stack.reverse());
}
