import { useState, type FormEvent } from 'react';
import { describeError } from '../api/http';
import { useInviteTeammate, useRemoveTeammate, useTeamQuery } from '../api/queries';
import type { InvitedUserDto as CreatedInvite } from '@messaging-gateway/client';
import { ConfirmButton } from '../components/confirm-button';
import { CurlPreview } from '../components/curl-preview';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { OneTimeSecret } from '../components/one-time-secret';
import { useSession } from '../session/session';

export function TeamPage() {
  const team = useTeamQuery();
  const remove = useRemoveTeammate();
  const { user } = useSession();
  const [invite, setInvite] = useState<CreatedInvite | null>(null);
  return (
    <section className="page">
      <header className="page-header">
        <h1>Team</h1>
        <p className="muted">
          Everyone here signs in to this account's dashboard. No email is sent: give the invite link to the person yourself.
        </p>
      </header>
      <InviteForm onInvited={setInvite} />
      {invite && (
        <OneTimeSecret
          label={`Invite link for ${invite.user.email}`}
          value={invite.inviteUrl}
          warning={`It works once and expires ${new Date(invite.inviteExpiresAt).toLocaleString()}. Send it to ${invite.user.email} now.`}
          onDismiss={() => setInvite(null)}
        />
      )}
      {team.isPending ? (
        <LoadingBlock label="Loading the team" />
      ) : team.error ? (
        <ErrorNotice error={team.error} onRetry={() => void team.refetch()} />
      ) : team.data.length === 0 ? (
        <EmptyState title="Nobody here yet" />
      ) : (
        <ul className="instance-list" aria-label="Team members">
          {team.data.map((member) => (
            <li key={member.id} className="card instance-row">
              <div>
                <strong>{member.email}</strong>
                {member.id === user.id && <span className="tag">You</span>}
                <div className="muted small">
                  {member.status === 'invited'
                    ? 'Invited, has not set a password yet'
                    : member.lastSignInAt
                      ? `Last signed in ${new Date(member.lastSignInAt).toLocaleString()}`
                      : 'Active'}
                </div>
              </div>
              {member.id !== user.id && (
                <ConfirmButton
                  label={`Remove ${member.email}`}
                  title={`Remove ${member.email}?`}
                  confirmLabel="Remove"
                  onConfirm={() => remove.mutate(member.id)}
                  disabled={remove.isPending}
                >
                  <p>They are signed out everywhere and can no longer sign in.</p>
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <InlineError>{remove.error ? describeError(remove.error) : null}</InlineError>
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: (invite: CreatedInvite) => void }) {
  const inviteTeammate = useInviteTeammate();
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    inviteTeammate.mutate(email.trim(), {
      onSuccess: (invite) => {
        setEmail('');
        onInvited(invite);
      },
    });
  };
  return (
    <form className="card form-inline" onSubmit={submit} aria-label="Invite a teammate">
      <label className="field grow">
        <span>Teammate's email</span>
        <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      </label>
      <button type="submit" className="button button-primary" disabled={inviteTeammate.isPending}>
        Create invite link
      </button>
      <InlineError>{inviteTeammate.error ? describeError(inviteTeammate.error) : null}</InlineError>
      <CurlPreview request={{ method: 'POST', path: '/account/users', body: { email: email.trim() || 'teammate@example.com' } }} />
    </form>
  );
}
