import { dayName, parseBound, partitionCovering, utcDay } from './partition-bounds';

describe('partition bounds', () => {
  it('reads the bounds PostgreSQL prints for daily, legacy and DEFAULT partitions as UTC', () => {
    expect(parseBound('event_log_p20261128', "FOR VALUES FROM ('2026-11-28 00:00:00') TO ('2026-11-29 00:00:00')")).toEqual({
      name: 'event_log_p20261128',
      isDefault: false,
      from: new Date('2026-11-28T00:00:00.000Z'),
      to: new Date('2026-11-29T00:00:00.000Z'),
    });
    expect(parseBound('event_log_legacy', "FOR VALUES FROM (MINVALUE) TO ('2026-11-28 00:00:00')")).toEqual({
      name: 'event_log_legacy',
      isDefault: false,
      from: null,
      to: new Date('2026-11-28T00:00:00.000Z'),
    });
    expect(parseBound('event_log_default', 'DEFAULT')).toEqual({ name: 'event_log_default', isDefault: true, from: null, to: null });
    expect(() => parseBound('odd', "FOR VALUES IN ('x')")).toThrow('unexpected partition bound of odd');
  });

  it('tells whether a day is covered already, by a daily or a legacy partition but never by DEFAULT', () => {
    const partitions = [
      parseBound('legacy', "FOR VALUES FROM (MINVALUE) TO ('2026-11-28 00:00:00')"),
      parseBound('p20261128', "FOR VALUES FROM ('2026-11-28 00:00:00') TO ('2026-11-29 00:00:00')"),
      parseBound('default', 'DEFAULT'),
    ];
    const day = (iso: string) => [new Date(iso), new Date(new Date(iso).getTime() + 86_400_000)] as const;
    expect(partitionCovering(partitions, ...day('2026-11-27T00:00:00Z'))).toBe(true);
    expect(partitionCovering(partitions, ...day('2026-11-28T00:00:00Z'))).toBe(true);
    expect(partitionCovering(partitions, ...day('2026-11-29T00:00:00Z'))).toBe(false);
  });

  it('names days by their UTC date', () => {
    expect(utcDay(new Date('2026-11-27T23:59:59.999Z'))).toEqual(new Date('2026-11-27T00:00:00.000Z'));
    expect(dayName(new Date('2026-01-05T00:00:00.000Z'))).toBe('p20260105');
  });
});
