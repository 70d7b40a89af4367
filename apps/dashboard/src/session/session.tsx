import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiError, setCsrfToken } from '../api/http';
import { keys, signOut as signOutRequest, useSessionQuery } from '../api/queries';
import type { DashboardUserDto as SessionUser, SignedInDto as SignedIn } from '@messaging-gateway/client';
import { ErrorNotice, LoadingBlock } from '../components/feedback';

interface SessionValue {
  user: SessionUser;
  signOut: (everywhere: boolean) => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Call after a sign-in or an accepted invite: the answer is the new session. */
export function useSignedIn(): (signedIn: SignedIn) => void {
  const client = useQueryClient();
  return useCallback(
    (signedIn: SignedIn) => {
      setCsrfToken(signedIn.csrfToken);
      client.clear();
      client.setQueryData(keys.session, signedIn);
    },
    [client],
  );
}

/** The signed-in user; only inside <RequireSession>. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside RequireSession');
  return value;
}

/** Shows its children to a signed-in user, and sends anyone else to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSessionQuery();
  const client = useQueryClient();
  const location = useLocation();
  const signOut = useCallback(
    async (everywhere: boolean) => {
      await signOutRequest(everywhere);
      setCsrfToken(null);
      client.clear();
      client.setQueryData(keys.session, null);
    },
    [client],
  );
  const value = useMemo(() => (session.data ? { user: session.data.user, signOut } : null), [session.data, signOut]);

  if (session.data) setCsrfToken(session.data.csrfToken);
  if (session.isPending) return <LoadingBlock label="Checking your session" />;
  if (session.error instanceof ApiError && session.error.status === 401) {
    return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  }
  if (session.error) return <ErrorNotice error={session.error} onRetry={() => void session.refetch()} />;
  if (!value) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
