import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { applyLiveStatus } from '../api/queries';
import { followLiveFeed, type LiveFeed } from '../api/live-socket';
import type { InstanceStatusMessage as LiveStatusMessage } from '@messaging-gateway/client';

type StreamState = 'connecting' | 'live' | 'reconnecting';
const LiveStatusContext = createContext<StreamState>('connecting');

/** One stream of status changes for all the customer's instances, pushed into the query cache as they arrive. */
export function LiveStatusProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  useEffect(() => {
    const abort = new AbortController();
    const feed: LiveFeed = { stream: 'instances' };
    followLiveFeed(feed, {
      signal: abort.signal,
      onOpen: () => {
        setState('live');
        // Anything that changed while the stream was down is read once.
        void client.invalidateQueries({ queryKey: ['instances'], exact: true });
      },
      onDrop: () => setState('reconnecting'),
      onMessage: (message) => {
        try {
          applyLiveStatus(client, JSON.parse(message.data) as LiveStatusMessage);
        } catch {
          // A malformed message is skipped; the next one carries the full status again.
        }
      },
    });
    return () => abort.abort();
  }, [client]);
  return <LiveStatusContext.Provider value={state}>{children}</LiveStatusContext.Provider>;
}

export function useLiveStatusState(): StreamState {
  return useContext(LiveStatusContext);
}
