import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../api/http';
import { instancePath, useDeleteInstance, useRegenerateInstanceKey, useRenameInstance, useRestartInstance } from '../api/queries';
import { ConfirmButton } from '../components/confirm-button';
import { CurlPreview } from '../components/curl-preview';
import { InlineError } from '../components/feedback';
import { OneTimeSecret } from '../components/one-time-secret';
import { DeliveryChart } from './delivery-chart';
import { useCurrentInstance } from './instance-page';
import { ProxyPanel } from './proxy-panel';

export function InstanceOverview() {
  const instance = useCurrentInstance();
  return (
    <div className="stack">
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <dl className="details">
          <dt>Network</dt>
          <dd>{instance.sandbox ? 'Sandbox (simulated)' : 'Real'}</dd>
          <dt>Paired device</dt>
          <dd className="mono">{instance.deviceId || 'none yet'}</dd>
          <dt>Created</dt>
          <dd>{new Date(instance.created).toLocaleString()}</dd>
          <dt>Own API key</dt>
          <dd>{instance.hasApiKey ? 'Yes (hasApiKey)' : 'No: only the customer key works for it'}</dd>
        </dl>
      </section>
      <DeliveryChart />
      <ProxyPanel />
      <RenameForm />
      <InstanceKeyPanel />
      <LifecyclePanel />
    </div>
  );
}

function RenameForm() {
  const instance = useCurrentInstance();
  const rename = useRenameInstance();
  const [name, setName] = useState(instance.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: instance.id, name });
  };
  return (
    <form className="card form-inline" onSubmit={submit} aria-labelledby="rename-title">
      <h2 id="rename-title" className="full">
        Name
      </h2>
      <label className="field grow">
        <span>Instance name</span>
        <input value={name} maxLength={100} required onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="submit" className="button" disabled={rename.isPending || name === instance.name}>
        Rename
      </button>
      {rename.isSuccess && name === instance.name && <span className="ok">Saved</span>}
      <InlineError>{rename.error ? describeError(rename.error) : null}</InlineError>
      <CurlPreview request={{ method: 'PUT', path: `${instancePath(instance.id)}/name`, body: { name } }} />
    </form>
  );
}

function InstanceKeyPanel() {
  const instance = useCurrentInstance();
  const regenerate = useRegenerateInstanceKey();
  const [key, setKey] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="instance-key-title">
      <h2 id="instance-key-title">Instance API key</h2>
      <p className="muted">
        An instance key works for this instance only. {instance.hasApiKey ? 'This instance has one.' : 'This instance has none.'} A new key
        replaces the old one at once.
      </p>
      <ConfirmButton
        label={instance.hasApiKey ? 'Regenerate instance key' : 'Generate instance key'}
        title="Regenerate the instance key?"
        confirmLabel="Regenerate"
        onConfirm={() => regenerate.mutate(instance.id, { onSuccess: setKey })}
        disabled={regenerate.isPending}
      >
        <p>The current instance key stops working immediately. Anything using it must be given the new one.</p>
      </ConfirmButton>
      <InlineError>{regenerate.error ? describeError(regenerate.error) : null}</InlineError>
      {key && (
        <OneTimeSecret
          label="New instance API key"
          value={key}
          warning="The previous instance key has stopped working. Copy this one now."
          onDismiss={() => setKey(null)}
        />
      )}
      <CurlPreview request={{ method: 'PUT', path: `${instancePath(instance.id)}/apikey` }} />
    </section>
  );
}

function LifecyclePanel() {
  const instance = useCurrentInstance();
  const restart = useRestartInstance();
  const remove = useDeleteInstance();
  const navigate = useNavigate();
  return (
    <section className="card" aria-labelledby="lifecycle-title">
      <h2 id="lifecycle-title">Restart or delete</h2>
      <div className="row">
        <button type="button" className="button" onClick={() => restart.mutate(instance.id)} disabled={restart.isPending}>
          {restart.isPending ? 'Restarting…' : 'Restart session'}
        </button>
        {restart.isSuccess && <span className="ok">Restarted</span>}
        <ConfirmButton
          label="Delete instance"
          title={`Delete ${instance.name}?`}
          confirmLabel="Delete for good"
          onConfirm={() => remove.mutate(instance.id, { onSuccess: () => void navigate('/', { replace: true }) })}
          disabled={remove.isPending}
        >
          <p>The instance, its key and its settings are deleted; a paired phone is logged out first. This cannot be undone.</p>
        </ConfirmButton>
      </div>
      <InlineError>{restart.error ? describeError(restart.error) : remove.error ? describeError(remove.error) : null}</InlineError>
    </section>
  );
}
