import { createContext, useContext, type ReactNode } from 'react';
import { useDeliveryStatesQuery } from '../api/peer-queries';
import type { DeliveryStateDto } from '../api/peer-types';

type States = Map<string, DeliveryStateDto['state']> | undefined;

const DeliveryStates = createContext<States>(undefined);

const LABELS: Record<DeliveryStateDto['state'], { mark: string; text: string }> = {
  delivered: { mark: '✓', text: 'Delivered' },
  failed: { mark: '✕', text: 'Failed' },
  stopped: { mark: '✕', text: 'Stopped' },
  pending: { mark: '…', text: 'Pending' },
};

/** Reads the delivery state of every event shown since `since` in one request, for the rows below to mark. */
export function DeliveryStatesProvider({
  instanceId,
  since,
  newest,
  children,
}: {
  instanceId: string;
  since: string | undefined;
  /** The newest event shown: a new one asks again. */
  newest: number | undefined;
  children: ReactNode;
}) {
  const states = useDeliveryStatesQuery(instanceId, since, newest);
  const map = states.data ? new Map(states.data.items.map((item) => [item.eventId, item.state])) : undefined;
  return <DeliveryStates.Provider value={map}>{children}</DeliveryStates.Provider>;
}

/** ok / failed at a glance; events never meant for a webhook carry no mark. */
export function DeliveryMarker({ eventId }: { eventId: string }) {
  const states = useContext(DeliveryStates);
  const state = states?.get(eventId);
  if (!state) return <span className="delivery-mark delivery-mark-none" aria-hidden="true" />;
  const label = LABELS[state];
  return (
    <span className={`delivery-mark badge delivery-${state}`} title={`Webhook delivery: ${label.text.toLowerCase()}`}>
      <span aria-hidden="true">{label.mark}</span> <span className="delivery-mark-text">{label.text}</span>
    </span>
  );
}
