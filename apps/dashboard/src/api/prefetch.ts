import type { QueryClient } from '@tanstack/react-query';
import { preconnectLiveSocket } from './live-socket';
import { hasSignInHint, instanceQuery, instancesQuery, recentEventsQuery, sessionQuery } from './queries';

const BASE = '/dashboard';

/**
 * Starts, in parallel and before the first render, the reads the opened page will make one after another (session,
 * then the instance, then its events) and opens the live socket: a tab opened on an instance's events is live a few
 * round trips sooner. Only
 * with a sign-in hint, as the session query itself: a signed-out page asks nothing.
 */
export function prefetchForLocation(client: QueryClient, pathname: string): void {
  if (!hasSignInHint()) return;
  void client.prefetchQuery(sessionQuery());
  preconnectLiveSocket();
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const [, first, id, tab] = path.split('/');
  if (first === undefined || first === '') {
    void client.prefetchQuery(instancesQuery());
    return;
  }
  if (first !== 'instances' || !id) return;
  void client.prefetchQuery(instanceQuery(decodeURIComponent(id)));
  if (tab === 'events') void client.prefetchQuery(recentEventsQuery(decodeURIComponent(id)));
}
