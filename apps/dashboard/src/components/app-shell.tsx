import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { describeError } from '../api/http';
import { useLiveStatusState } from '../session/live-status';
import { useSession } from '../session/session';

/** The frame around every signed-in page: who you are, where you can go, sign-out. */
export function AppShell() {
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const live = useLiveStatusState();
  const [error, setError] = useState<string | null>(null);
  const leave = async (everywhere: boolean) => {
    try {
      await signOut(everywhere);
      await navigate('/sign-in', { replace: true });
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>{user.customerName}</span>
        </div>
        <nav aria-label="Main" className="nav">
          <NavLink to="/" end>
            Instances
          </NavLink>
          <NavLink to="/account">Keys &amp; defaults</NavLink>
          <NavLink to="/team">Team</NavLink>
        </nav>
        <div className="user">
          <span className={`live-dot live-${live}`} title={live === 'live' ? 'Live updates on' : 'Reconnecting to live updates'}>
            <span className="sr-only">{live === 'live' ? 'Live updates on' : 'Reconnecting to live updates'}</span>
          </span>
          <span className="user-email">{user.email}</span>
          <button type="button" className="button button-quiet" onClick={() => void leave(false)}>
            Sign out
          </button>
          <button type="button" className="button button-quiet hide-narrow" onClick={() => void leave(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      {error && (
        <p className="inline-error banner" role="alert">
          Sign-out failed: {error}
        </p>
      )}
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
