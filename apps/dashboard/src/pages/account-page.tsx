import { useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../api/http';
import { useDefaultsQuery, useRotateCustomerKey, useUpdateDefaults } from '../api/queries';
import type { CustomerDefaultsDto as CustomerDefaults } from '@messaging-gateway/client';
import { ConfirmButton } from '../components/confirm-button';
import { CurlPreview } from '../components/curl-preview';
import { EventSettingsFields, type EventSettingsValue } from '../components/event-settings-fields';
import { ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { OneTimeSecret } from '../components/one-time-secret';

export function AccountPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Keys &amp; defaults</h1>
      </header>
      <div className="stack">
        <CustomerKeyPanel />
        <DefaultsForm />
      </div>
    </section>
  );
}

function CustomerKeyPanel() {
  const rotate = useRotateCustomerKey();
  const [key, setKey] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="customer-key-title">
      <h2 id="customer-key-title">Customer API key</h2>
      <p className="muted">
        The customer key reaches every instance of your account. A lost key cannot be shown again: rotate it to get a new one. Signing in
        here does not need it.
      </p>
      <ConfirmButton
        label="Rotate customer key"
        title="Rotate the customer key?"
        confirmLabel="Rotate now"
        onConfirm={() => rotate.mutate(undefined, { onSuccess: setKey })}
        disabled={rotate.isPending}
      >
        <p>The current customer key stops working at once, on every server. Every system using it must be given the new key.</p>
      </ConfirmButton>
      <InlineError>{rotate.error ? describeError(rotate.error) : null}</InlineError>
      {key && (
        <OneTimeSecret
          label="New customer API key"
          value={key}
          warning="The old customer key has stopped working. Copy the new one now and update your systems."
          onDismiss={() => setKey(null)}
        />
      )}
      <CurlPreview request={{ method: 'POST', path: '/account/apikey/rotate' }} />
    </section>
  );
}

const toValue = (defaults: CustomerDefaults): EventSettingsValue => ({
  webhookUrl: defaults.defaultWebhookUrl,
  signingSecret: defaults.defaultSigningSecret,
  eventFilters: defaults.defaultEventFilters,
  pullMode: defaults.defaultPullMode,
  historySync: defaults.defaultHistorySync,
});

function DefaultsForm() {
  const defaults = useDefaultsQuery();
  const update = useUpdateDefaults();
  const [value, setValue] = useState<EventSettingsValue | null>(null);
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  useEffect(() => {
    if (defaults.data) setValue(toValue(defaults.data));
  }, [defaults.data]);
  if (defaults.isPending) return <LoadingBlock label="Loading the defaults" />;
  if (defaults.error) return <ErrorNotice error={defaults.error} onRetry={() => void defaults.refetch()} />;
  if (!value) return null;
  const body: CustomerDefaults = {
    defaultWebhookUrl: value.webhookUrl.trim(),
    defaultSigningSecret: value.signingSecret,
    defaultEventFilters: value.eventFilters,
    defaultHistorySync: value.historySync,
    defaultPullMode: value.pullMode,
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(body, { onSuccess: () => setFreshSecret(null) });
  };
  const error = update.error ? describeError(update.error) : null;
  const urlError = error && /webhookUrl/i.test(error) ? error : null;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="defaults-title">
      <h2 id="defaults-title">Customer defaults</h2>
      <p className="muted">Instances with “Use customer defaults” follow these settings.</p>
      <EventSettingsFields value={value} onChange={setValue} urlError={urlError} freshSecret={freshSecret} onFreshSecret={setFreshSecret} />
      <div className="row">
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save defaults'}
        </button>
        {update.isSuccess && <span className="ok">Saved</span>}
      </div>
      <InlineError>{error && !urlError ? error : null}</InlineError>
      <CurlPreview
        request={{
          method: 'PUT',
          path: '/account/instances/defaults',
          body: { ...body, defaultSigningSecret: body.defaultSigningSecret ? '<secret>' : '' },
        }}
      />
    </form>
  );
}
