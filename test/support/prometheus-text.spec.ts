import { familyOf, metricNamesIn, parseExposition, valueOf } from './prometheus-text';

describe('metricNamesIn', () => {
  it('finds the metric selectors of an expression and nothing else', () => {
    expect(
      metricNamesIn(
        `histogram_quantile(0.99, sum by (le, command) (rate(redis_command_duration_seconds_bucket{job=~"$job"}[$__rate_interval])))`,
      ),
    ).toEqual(['redis_command_duration_seconds_bucket']);
    expect(
      metricNamesIn(`sum(rate(webhook_delivery_attempts_total{outcome!~"delivered|skipped"}[15m]))
        / clamp_min(sum(rate(webhook_delivery_attempts_total[15m])), 1e-9) > 0.2
        and on (instance) max by (instance) (worker_sessions_flapping) offset 5m`),
    ).toEqual(['webhook_delivery_attempts_total', 'worker_sessions_flapping']);
    expect(metricNamesIn('max(messages_pending_sends) > 0 and max(deriv(messages_pending_sends[15m])) > 0')).toEqual([
      'messages_pending_sends',
    ]);
  });
});

describe('parseExposition and familyOf', () => {
  it('reads samples with their labels and resolves histogram series to their family', () => {
    const exposition = parseExposition(
      [
        '# HELP h_seconds help',
        '# TYPE h_seconds histogram',
        'h_seconds_bucket{le="0.1",route="/a \\"b\\""} 2',
        'h_seconds_count{route="/a \\"b\\""} 3',
        '# TYPE g gauge',
        'g 4',
      ].join('\n'),
    );
    expect(valueOf(exposition, 'h_seconds_bucket', { le: '0.1' })).toBe(2);
    expect(valueOf(exposition, 'g')).toBe(4);
    expect(['h_seconds_count', 'h_seconds_bucket', 'g', 'h_seconds_total', 'nope'].map((name) => familyOf(name, exposition.types))).toEqual(
      ['h_seconds', 'h_seconds', 'g', undefined, undefined],
    );
  });
});
