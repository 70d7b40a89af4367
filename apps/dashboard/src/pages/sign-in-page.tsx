import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, describeError } from '../api/http';
import { signIn, useSessionQuery } from '../api/queries';
import { InlineError } from '../components/feedback';
import { useSignedIn } from '../session/session';

export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSessionQuery();
  const signedIn = useSignedIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? '/';

  if (session.data) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await signIn(email.trim(), password));
      await navigate(from, { replace: true });
    } catch (failure) {
      setError(signInRefusal(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <span className="brand-mark large" aria-hidden="true" />
        <h1 id="sign-in-title">Sign in to the dashboard</h1>
        <label className="field">
          <span>Email</span>
          <input type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <InlineError>{error}</InlineError>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">Forgot your password? Ask your operator for a fresh one-time link, or a teammate to invite you again.</p>
      </form>
    </main>
  );
}

/**
 * A refused sign-in in a person's words: for a 429, why (the API's reason) and until when, in local time from
 * Retry-After, so nobody keeps retrying into the block.
 */
function signInRefusal(failure: unknown): string {
  if (!(failure instanceof ApiError) || failure.status !== 429 || failure.retryAfterSeconds === undefined) return describeError(failure);
  const reason = /^rate limited: ([^;]+)/.exec(failure.detail)?.[1] ?? 'too many attempts';
  const until = new Date(Date.now() + failure.retryAfterSeconds * 1000);
  const time = until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}; try again at ${time}`;
}
