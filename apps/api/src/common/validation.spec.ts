import { ArrayMaxSize, IsArray, IsDefined, IsString, MaxLength, ValidateNested, validate } from 'class-validator';
import { Type, plainToInstance } from 'class-transformer';
import { toAppError } from './validation';

class Button {
  @IsString()
  @MaxLength(20, { message: 'must be at most 20 characters' })
  text!: string;
}

class Message {
  @IsDefined({ message: 'is required' })
  @IsString()
  to!: string;

  @IsArray()
  @ArrayMaxSize(3, { message: 'must have at most 3 items' })
  @ValidateNested({ each: true })
  @Type(() => Button)
  buttons!: Button[];
}

async function detailFor(body: object): Promise<string> {
  return toAppError(await validate(plainToInstance(Message, body), { whitelist: true, forbidNonWhitelisted: true })).detail;
}

describe('validation errors', () => {
  it('names the field path with array indices', async () => {
    expect(await detailFor({ to: 'x', buttons: [{ text: 'ok' }, { text: 'ok' }, { text: 'x'.repeat(21) }] })).toBe(
      'validation error: buttons[2].text must be at most 20 characters',
    );
  });

  it('says only "is required" for a missing field', async () => {
    expect(await detailFor({ buttons: [] })).toBe('validation error: to is required');
  });

  it('treats wrong JSON types as an invalid body', async () => {
    expect(await detailFor({ to: 5, buttons: [] })).toBe('invalid request body');
    expect(await detailFor({ to: 'x', buttons: 'many' })).toBe('invalid request body');
  });

  it('reports unknown properties with their path', async () => {
    expect(await detailFor({ to: 'x', buttons: [{ text: 'a', colour: 'red' }] })).toBe(
      'validation error: property buttons[0].colour should not exist',
    );
  });

  it('joins several violations', async () => {
    expect(await detailFor({ to: 'x', buttons: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] })).toBe(
      'validation error: buttons must have at most 3 items',
    );
  });
});
