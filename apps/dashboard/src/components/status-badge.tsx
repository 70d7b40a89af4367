import type { InstanceStatus } from '@messaging-gateway/client';

const LABELS: Record<InstanceStatus, string> = {
  unpaired: 'Not paired',
  pairing: 'Waiting for scan',
  connecting: 'Connecting',
  connected: 'Connected',
  disconnected: 'Disconnected',
};

export function StatusBadge({ status }: { status: InstanceStatus }) {
  return <span className={`badge badge-${status}`}>{LABELS[status] ?? status}</span>;
}
