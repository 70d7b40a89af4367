import { PRIVACY_VALUES } from '@contracts/operations/users';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../api/http';
import { useOwnProfileQuery, usePrivacyQuery, useSetPresence, useSetPrivacy, useUpdateProfile } from '../api/peer-queries';
import type { PrivacySettingsDto } from '../api/peer-types';
import { CurlPreview } from '../components/curl-preview';
import { ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { useCurrentInstance } from './instance-page';

// The API's limits for the profile (apps/api/src/users/dto/users.dto.ts).
const MAX_NAME_CHARS = 25;
const MAX_ABOUT_CHARS = 139;

/** Each privacy setting as `GET /users/me/privacy` names it, its network name (the allowed values) and its label. */
const PRIVACY_FIELDS: { key: keyof PrivacySettingsDto; network: keyof typeof PRIVACY_VALUES; label: string }[] = [
  { key: 'lastSeen', network: 'last', label: 'Who sees last seen' },
  { key: 'online', network: 'online', label: 'Who sees when online' },
  { key: 'profile', network: 'profile', label: 'Who sees the profile picture' },
  { key: 'status', network: 'status', label: 'Who sees the about text' },
  { key: 'readReceipts', network: 'readreceipts', label: 'Read receipts' },
  { key: 'groupAdd', network: 'groupadd', label: 'Who can add the account to groups' },
  { key: 'callAdd', network: 'calladd', label: 'Who can call' },
];

const VALUE_LABELS: Record<string, string> = {
  all: 'Everyone',
  contacts: 'My contacts',
  contact_blacklist: 'My contacts except…',
  none: 'Nobody',
  match_last_seen: 'Same as last seen',
  known: 'Known numbers',
};

const chars = (value: string) => [...value].length;

/** What the account does on the network: its profile, its privacy and its presence, as the API can change them. */
export function BehaviourSettings() {
  const instance = useCurrentInstance();
  if (instance.status !== 'connected') {
    return (
      <div className="card">
        <p className="notice">
          These settings live on the network account, so they can be read and changed only while the instance is connected.{' '}
          <Link to="../pairing">Pair it</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="stack">
      <ProfileForm />
      <PrivacyForm />
      <PresenceCard />
    </div>
  );
}

function ProfileForm() {
  const instance = useCurrentInstance();
  const profile = useOwnProfileQuery(instance.id, true);
  const update = useUpdateProfile(instance.id);
  const [name, setName] = useState('');
  const [about, setAbout] = useState('');
  useEffect(() => {
    if (!profile.data) return;
    setName(profile.data.pushName ?? '');
    setAbout(profile.data.status ?? '');
  }, [profile.data]);
  if (profile.isPending) return <LoadingBlock label="Loading the profile" />;
  if (profile.error) return <ErrorNotice error={profile.error} onRetry={() => void profile.refetch()} />;
  const nameProblem =
    chars(name.trim()) === 0
      ? 'is required (1-25 characters)'
      : chars(name) > MAX_NAME_CHARS
        ? `must be 1-25 characters (now ${chars(name)})`
        : null;
  const aboutProblem = chars(about) > MAX_ABOUT_CHARS ? `must be at most ${MAX_ABOUT_CHARS} characters (now ${chars(about)})` : null;
  const body = { name, status: about };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nameProblem || aboutProblem) return;
    update.mutate(body);
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="profile-title" noValidate>
      <h2 id="profile-title">Profile</h2>
      <p className="muted small">
        Shown to people who do not have <span className="mono">+{profile.data.phone}</span> saved.
      </p>
      <label className="field">
        <span className="field-label">
          Push name
          <span className={chars(name) > MAX_NAME_CHARS ? 'counter counter-bad' : 'counter'}>
            {chars(name)}/{MAX_NAME_CHARS}
          </span>
        </span>
        <input
          value={name}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? 'problem-push-name' : undefined}
          onChange={(event) => {
            setName(event.target.value);
            update.reset();
          }}
        />
        {nameProblem && (
          <small className="inline-error" id="problem-push-name">
            Push name {nameProblem}
          </small>
        )}
      </label>
      <label className="field">
        <span className="field-label">
          About
          <span className={chars(about) > MAX_ABOUT_CHARS ? 'counter counter-bad' : 'counter'}>
            {chars(about)}/{MAX_ABOUT_CHARS}
          </span>
        </span>
        <input
          value={about}
          aria-invalid={aboutProblem ? true : undefined}
          aria-describedby={aboutProblem ? 'problem-about' : undefined}
          onChange={(event) => {
            setAbout(event.target.value);
            update.reset();
          }}
        />
        {aboutProblem && (
          <small className="inline-error" id="problem-about">
            About {aboutProblem}
          </small>
        )}
      </label>
      <div className="row">
        <button type="submit" className="button button-primary" disabled={update.isPending || Boolean(nameProblem || aboutProblem)}>
          {update.isPending ? 'Saving…' : 'Save profile'}
        </button>
        {update.isSuccess && (
          <span className="ok" role="status">
            Profile saved
          </span>
        )}
      </div>
      <InlineError>{update.error ? describeError(update.error) : null}</InlineError>
      <CurlPreview request={{ method: 'PUT', path: '/users/me/profile', instanceId: instance.id, body }} />
    </form>
  );
}

function PrivacyForm() {
  const instance = useCurrentInstance();
  const privacy = usePrivacyQuery(instance.id, true);
  const setPrivacy = useSetPrivacy(instance.id);
  const [saving, setSaving] = useState<string | null>(null);
  const [last, setLast] = useState({ setting: 'last', value: 'contacts' });
  if (privacy.isPending) return <LoadingBlock label="Loading privacy settings" />;
  if (privacy.error) return <ErrorNotice error={privacy.error} onRetry={() => void privacy.refetch()} />;
  const change = (network: string, value: string) => {
    setSaving(network);
    setLast({ setting: network, value });
    setPrivacy.mutate({ setting: network, value }, { onSettled: () => setSaving(null) });
  };
  return (
    <section className="card" aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy</h2>
      <p className="muted small">Each change is saved on the account at once; the phone shows the same choices.</p>
      <div className="privacy-grid">
        {PRIVACY_FIELDS.map((field) => (
          <label key={field.key} className="field">
            <span className="field-label">{field.label}</span>
            <select
              value={privacy.data[field.key]}
              disabled={saving !== null}
              onChange={(event) => change(field.network, event.target.value)}
            >
              {PRIVACY_VALUES[field.network].map((value) => (
                <option key={value} value={value}>
                  {VALUE_LABELS[value] ?? value}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {setPrivacy.isSuccess && saving === null && (
        <p className="ok" role="status">
          Privacy setting saved
        </p>
      )}
      <InlineError>{setPrivacy.error ? describeError(setPrivacy.error) : null}</InlineError>
      <CurlPreview request={{ method: 'PUT', path: '/users/me/privacy', instanceId: instance.id, body: last }} />
    </section>
  );
}

function PresenceCard() {
  const instance = useCurrentInstance();
  const presence = useSetPresence(instance.id);
  return (
    <section className="card" aria-labelledby="presence-title">
      <h2 id="presence-title">Presence</h2>
      <p className="muted small">
        Show the account online or offline to people allowed to see it. The network forgets this when the instance reconnects.
      </p>
      <div className="row">
        <button type="button" className="button" disabled={presence.isPending} onClick={() => presence.mutate('available')}>
          Show as online
        </button>
        <button type="button" className="button" disabled={presence.isPending} onClick={() => presence.mutate('unavailable')}>
          Show as offline
        </button>
        {presence.isSuccess && (
          <span className="ok" role="status">
            Shown as {presence.variables === 'available' ? 'online' : 'offline'}
          </span>
        )}
      </div>
      <InlineError>{presence.error ? describeError(presence.error) : null}</InlineError>
    </section>
  );
}
