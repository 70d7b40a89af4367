import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, describeError } from '../api/http';
import { acceptInvite, useInviteQuery } from '../api/queries';
import { ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { useSignedIn } from '../session/session';

/** The same minimum the server enforces; the server also refuses the most common passwords. */
const MIN_PASSWORD_CHARS = 12;

export function InvitePage() {
  const { token = '' } = useParams();
  // Accepted: the link is used up, and this page only waits for the navigation away.
  const [accepted, setAccepted] = useState(false);
  const invite = useInviteQuery(token, !accepted);
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (accepted) return <LoadingBlock label="Signing you in" />;
  if (invite.isPending) return <LoadingBlock label="Opening your invitation" />;
  if (invite.error) {
    const gone = invite.error instanceof ApiError && (invite.error.status === 404 || invite.error.status === 410);
    return (
      <main className="auth-page">
        <div className="card auth-card">
          <h1>This link cannot be used</h1>
          {gone ? (
            <p>It has expired or was already used. Links work once; ask whoever sent it for a new one.</p>
          ) : (
            <ErrorNotice error={invite.error} onRetry={() => void invite.refetch()} />
          )}
          <Link to="/sign-in">Go to sign-in</Link>
        </div>
      </main>
    );
  }

  const tooShort = [...password].length < MIN_PASSWORD_CHARS;
  const mismatch = repeat.length > 0 && repeat !== password;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooShort || mismatch) return;
    setBusy(true);
    setError(null);
    try {
      const session = await acceptInvite(token, password);
      setAccepted(true);
      signedIn(session);
      await navigate('/', { replace: true });
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  const resetting = invite.data.purpose === 'password_reset';
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(event) => void submit(event)} aria-labelledby="invite-title">
        <span className="brand-mark large" aria-hidden="true" />
        <h1 id="invite-title">{resetting ? 'Choose a new password' : `Join ${invite.data.customerName}`}</h1>
        <p>
          For <strong>{invite.data.email}</strong>. This link works once and expires {new Date(invite.data.expiresAt).toLocaleString()}.
        </p>
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            value={password}
            aria-describedby="password-rule"
            onChange={(event) => setPassword(event.target.value)}
          />
          <small id="password-rule" className={password && tooShort ? 'hint hint-bad' : 'hint'}>
            At least {MIN_PASSWORD_CHARS} characters; common passwords are refused.
          </small>
        </label>
        <label className="field">
          <span>Repeat password</span>
          <input type="password" autoComplete="new-password" required value={repeat} onChange={(event) => setRepeat(event.target.value)} />
        </label>
        <InlineError>{mismatch ? 'The two passwords differ.' : error}</InlineError>
        <button type="submit" className="button button-primary" disabled={busy || tooShort || mismatch || !repeat}>
          {busy ? 'Saving…' : 'Set password and sign in'}
        </button>
      </form>
    </main>
  );
}
