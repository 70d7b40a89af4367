import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../api/http';
import { useCreateInstance, useInstancesQuery } from '../api/queries';
import type { CreatedInstanceDto as CreatedInstance } from '@messaging-gateway/client';
import { CurlPreview } from '../components/curl-preview';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { OneTimeSecret } from '../components/one-time-secret';
import { StatusBadge } from '../components/status-badge';
import { AccountIdentity } from './account-identity';

export function InstancesPage() {
  const instances = useInstancesQuery();
  // One card per instance created on this page, kept until its key is stored: a second creation must not hide the first key.
  const [created, setCreated] = useState<Array<CreatedInstance & { named: boolean }>>([]);
  return (
    <section className="page">
      <header className="page-header">
        <h1>Instances</h1>
        <p className="muted">Each instance is one linked phone number. Status changes appear here as they happen.</p>
      </header>
      <CreateInstanceForm onCreated={(instance, named) => setCreated((cards) => [{ ...instance, named }, ...cards])} />
      {created.map((instance) => (
        <OneTimeSecret
          key={instance.id}
          label={`API key of ${instance.name}`}
          title={`API key of ${instance.name}`}
          value={instance.apiKey}
          warning={
            (instance.named ? '' : `No name was given, so the instance was named ${instance.name}; rename it on its page. `) +
            "This is the instance's own API key. Store it now; it cannot be shown again (you can issue a new one later)."
          }
          onDismiss={() => setCreated((cards) => cards.filter((card) => card.id !== instance.id))}
        />
      ))}
      {instances.isPending ? (
        <LoadingBlock label="Loading instances" />
      ) : instances.error ? (
        <ErrorNotice error={instances.error} onRetry={() => void instances.refetch()} />
      ) : instances.data.items.length === 0 ? (
        <EmptyState title="No instances yet">Create a sandbox instance above to try everything without a phone.</EmptyState>
      ) : (
        <ul className="instance-list" aria-label="Instances">
          {instances.data.items.map((instance) => (
            <li key={instance.id} className="card instance-row">
              <div>
                <Link to={`/instances/${instance.id}`} className="instance-name">
                  {instance.name}
                </Link>
                <div className="muted small mono">{instance.id}</div>
              </div>
              <AccountIdentity instance={instance} />
              <div className="instance-meta">
                {instance.sandbox && <span className="tag">Sandbox</span>}
                <StatusBadge status={instance.status} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CreateInstanceForm({ onCreated }: { onCreated: (instance: CreatedInstance, named: boolean) => void }) {
  const create = useCreateInstance();
  const [name, setName] = useState('');
  const [sandbox, setSandbox] = useState(true);
  const body = { ...(name.trim() ? { name: name.trim() } : {}), sandbox };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(body, {
      onSuccess: (instance) => {
        setName('');
        onCreated(instance, body.name !== undefined);
      },
    });
  };
  return (
    <form className="card form-inline" onSubmit={submit} aria-label="Create an instance">
      <label className="field grow">
        <span>Instance name</span>
        <input
          value={name}
          maxLength={100}
          placeholder="e.g. Support line"
          aria-describedby="instance-name-hint"
          onChange={(event) => setName(event.target.value)}
        />
        <small id="instance-name-hint" className="hint">
          Optional: left empty, a name such as instance-6jpjzw is generated.
        </small>
      </label>
      <fieldset className="field segmented">
        <legend>Network</legend>
        <label>
          <input type="radio" name="network" checked={sandbox} onChange={() => setSandbox(true)} /> Sandbox
        </label>
        <label>
          <input type="radio" name="network" checked={!sandbox} onChange={() => setSandbox(false)} /> Real
        </label>
      </fieldset>
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create instance'}
      </button>
      <InlineError>{create.error ? describeError(create.error) : null}</InlineError>
      <CurlPreview request={{ method: 'POST', path: '/account/instances', body }} />
    </form>
  );
}
