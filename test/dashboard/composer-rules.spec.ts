import fc from 'fast-check';
import { validationOutcome } from '../../apps/api/src/common/validation-outcome.testing';
import { SendButtonsDto } from '../../apps/api/src/messages/dto/send-buttons.dto';
import { SendListDto } from '../../apps/api/src/messages/dto/send-list.dto';
import { SendTextDto } from '../../apps/api/src/messages/dto/send-text.dto';
import { checkDraft, toRequestBody, type Draft } from '../../apps/dashboard/src/instance/message-rules';

const DTOS = { text: SendTextDto, buttons: SendButtonsDto, list: SendListDto } as const;

/**
 * Mostly valid values, sometimes one at or just past a limit, so that many drafts are valid or break exactly one rule:
 * a check the composer lacks (or gets wrong) then shows as a disagreement instead of hiding behind other problems.
 */
const mostly = <T>(valid: fc.Arbitrary<T>, edges: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: edges });
const limited = (max: number, required: boolean) =>
  mostly(
    fc.constantFrom('Yes', 'No', 'ok', '9:00'),
    fc.constantFrom(...(required ? ['', ' '] : []), 'x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), '😀'.repeat(max + 1)),
  );
const optional = (max: number) => mostly(fc.constant(''), limited(max, false));
const uniqueish = (max: number) =>
  mostly(
    fc.uuid().map((value) => value.slice(0, 8)),
    fc.constantFrom('dup', '', ' ', 'i'.repeat(max), 'i'.repeat(max + 1)),
  );

const draft: fc.Arbitrary<Draft> = fc.record({
  kind: fc.constantFrom('text' as const, 'buttons' as const, 'list' as const),
  to: fc.constantFrom('14155550142', '+44 7700 900123', '447700900123@s.whatsapp.net'),
  text: mostly(
    fc.constantFrom('Hello', 'Do you confirm?'),
    fc.constantFrom('', ' ', 'm'.repeat(1024), 'm'.repeat(1025), 'm'.repeat(4096), 'm'.repeat(4097)),
  ),
  header: optional(60),
  footer: optional(60),
  buttons: fc.array(fc.record({ id: uniqueish(256), text: limited(20, true) }), { minLength: 0, maxLength: 4 }),
  listButtonText: limited(20, true),
  sections: fc.array(
    fc.record({
      title: optional(24),
      rows: fc.array(fc.record({ id: uniqueish(200), title: limited(24, true), description: optional(72) }), {
        minLength: 0,
        maxLength: 4,
      }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

describe('the dashboard composer checks', () => {
  it('accept exactly the messages the API accepts (text, buttons and list, around every limit)', async () => {
    await fc.assert(
      fc.asyncProperty(draft, async (candidate) => {
        const problems = checkDraft(candidate);
        const outcome = await validationOutcome(DTOS[candidate.kind], toRequestBody(candidate));
        expect({ composer: Object.keys(problems).length === 0 ? 'ok' : problems, api: outcome === 'ok' ? 'ok' : 'refused' }).toEqual(
          outcome === 'ok' ? { composer: 'ok', api: 'ok' } : { composer: expect.any(Object), api: 'refused' },
        );
      }),
      { numRuns: 1500 },
    );
  });

  it("use the API's limits and words: a fourth button and a 21-character label", () => {
    const buttons = [
      { id: 'a', text: 'A' },
      { id: 'b', text: 'B' },
      { id: 'c', text: 'x'.repeat(21) },
      { id: 'd', text: 'D' },
    ];
    const base: Draft = {
      kind: 'buttons',
      to: '14155550142',
      text: 'Hi',
      header: '',
      footer: '',
      buttons,
      listButtonText: '',
      sections: [],
    };
    expect(checkDraft(base)).toEqual({
      buttons: 'must have at most 3 items',
      'buttons[2].text': 'must be at most 20 characters (now 21)',
    });
  });

  it('read a pasted number as the API does: the same strings accepted, the same numbers sent, the same words refused', async () => {
    const typed = [
      '+44 7700 900123',
      '+1 (415) 555-0123',
      '0044 7700 900123',
      '1.415.555.0123',
      '07700 900123',
      '+44 77OO 900123',
      '+44 123',
    ];
    const text = (to: string): Draft => ({
      kind: 'text',
      to,
      text: 'Hi',
      header: '',
      footer: '',
      buttons: [],
      listButtonText: '',
      sections: [],
    });
    const outcomes = await Promise.all(
      typed.map(async (to) => ({
        to,
        composer: checkDraft(text(to)).to ?? `sends ${String(toRequestBody(text(to)).to)}`,
        api: await validationOutcome(SendTextDto, { to, text: 'Hi' }),
      })),
    );
    expect(outcomes).toEqual([
      { to: '+44 7700 900123', composer: 'sends 447700900123', api: 'ok' },
      { to: '+1 (415) 555-0123', composer: 'sends 14155550123', api: 'ok' },
      { to: '0044 7700 900123', composer: 'sends 447700900123', api: 'ok' },
      { to: '1.415.555.0123', composer: 'sends 14155550123', api: 'ok' },
      ...[
        ['07700 900123', 'a leading 0 means a national number; write the country code instead (+44 7700 900123)'],
        ['+44 77OO 900123', "remove the letters 'O'"],
        ['+44 123', 'too short: 5 digits, an international number has 7 to 15'],
      ].map(([to, problem]) => ({ to, composer: problem, api: `validation error: to: ${problem}` })),
    ]);
  });
});
