import { useEffect, useRef, type ReactNode } from 'react';
import { useDeliveryHealthQuery } from '../api/peer-queries';
import type { HourlyDeliveriesDto } from '../api/peer-types';
import { ErrorNotice, LoadingBlock } from '../components/feedback';
import { useCurrentInstance } from './instance-page';

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 32 };

const hourLabel = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** Webhook deliveries and failures per hour over the last 24 hours: stacked bars, with the numbers as a table. */
export function DeliveryChart() {
  const instance = useCurrentInstance();
  const health = useDeliveryHealthQuery(instance.id);
  return (
    <section className="card chart-card" aria-labelledby="health-title">
      <div className="row spread">
        <h2 id="health-title">Delivery health, last 24 hours</h2>
        {health.data && <Totals hours={health.data.hours} />}
      </div>
      {health.isPending ? (
        <LoadingBlock label="Loading delivery counts" />
      ) : health.error ? (
        <ErrorNotice error={health.error} onRetry={() => void health.refetch()} />
      ) : (
        <>
          <ChartScroll>
            <Bars hours={health.data.hours} />
          </ChartScroll>
          <details className="chart-table">
            <summary>Show the numbers</summary>
            <HourTable hours={health.data.hours} />
          </details>
        </>
      )}
    </section>
  );
}

/** On a narrow screen the chart scrolls sideways; it opens on the newest hours, the ones people look for. */
function ChartScroll({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) box.current.scrollLeft = box.current.scrollWidth;
  }, []);
  return (
    <div className="chart-scroll" ref={box} tabIndex={0} role="region" aria-label="Deliveries per hour, scrolls sideways">
      {children}
    </div>
  );
}

function Totals({ hours }: { hours: HourlyDeliveriesDto[] }) {
  const sum = (key: 'delivered' | 'failed' | 'pending') => hours.reduce((total, hour) => total + hour[key], 0);
  return (
    <p className="chart-totals small" aria-label="Totals over 24 hours">
      <span className="legend legend-delivered">Delivered {sum('delivered')}</span>
      <span className="legend legend-failed">Failed {sum('failed')}</span>
      <span className="legend legend-pending">Pending {sum('pending')}</span>
    </p>
  );
}

function Bars({ hours }: { hours: HourlyDeliveriesDto[] }) {
  const top = Math.max(1, ...hours.map((hour) => hour.delivered + hour.failed + hour.pending));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / hours.length;
  const y = (value: number) => (value / top) * plotHeight;
  const total = hours.reduce((sum, hour) => sum + hour.delivered + hour.failed + hour.pending, 0);
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="chart-title chart-desc">
      <title id="chart-title">Webhook deliveries per hour</title>
      <desc id="chart-desc">
        {total === 0
          ? 'No webhook deliveries in the last 24 hours.'
          : `Stacked bars for the 24 hours from ${hourLabel(hours[0].hour)}: delivered in green, failed in red, pending in amber; the largest hour has ${top}.`}
      </desc>
      <line className="chart-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} />
      <text className="chart-label" x={PAD.left - 6} y={PAD.top + 8} textAnchor="end">
        {top}
      </text>
      <text className="chart-label" x={PAD.left - 6} y={PAD.top + plotHeight} textAnchor="end">
        0
      </text>
      {hours.map((hour, index) => {
        const x = PAD.left + index * slot + slot * 0.15;
        const width = slot * 0.7;
        let base = PAD.top + plotHeight;
        const segments = (['delivered', 'failed', 'pending'] as const).map((key) => {
          const height = y(hour[key]);
          base -= height;
          return height > 0 ? <rect key={key} className={`bar bar-${key}`} x={x} y={base} width={width} height={height} /> : null;
        });
        return (
          <g key={hour.hour} data-hour={hour.hour}>
            <title>{`${hourLabel(hour.hour)}: ${hour.delivered} delivered, ${hour.failed} failed, ${hour.pending} pending`}</title>
            {segments}
            {index % 6 === 0 && (
              <text className="chart-label" x={x + width / 2} y={HEIGHT - 6} textAnchor="middle">
                {hourLabel(hour.hour)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function HourTable({ hours }: { hours: HourlyDeliveriesDto[] }) {
  return (
    <table className="attempts">
      <caption className="sr-only">Webhook deliveries per hour</caption>
      <thead>
        <tr>
          <th scope="col">Hour</th>
          <th scope="col">Delivered</th>
          <th scope="col">Failed</th>
          <th scope="col">Pending</th>
        </tr>
      </thead>
      <tbody>
        {hours.map((hour) => (
          <tr key={hour.hour}>
            <th scope="row">{hourLabel(hour.hour)}</th>
            <td>{hour.delivered}</td>
            <td>{hour.failed}</td>
            <td>{hour.pending}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
