import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../api/http';
import { instancePath, useTestWebhook, useUpdateSettings } from '../api/queries';
import type { InstanceSettingsDto as InstanceSettings } from '@messaging-gateway/client';
import { CurlPreview } from '../components/curl-preview';
import { EventSettingsFields, type EventSettingsValue } from '../components/event-settings-fields';
import { InlineError } from '../components/feedback';
import { useCurrentInstance } from './instance-page';

const toValue = (settings: InstanceSettings): EventSettingsValue => ({
  webhookUrl: settings.webhookUrl,
  signingSecret: settings.eventSigningSecret,
  eventFilters: settings.eventFilters,
  pullMode: settings.pullMode,
  historySync: settings.historySync,
});

export function WebhookSettings() {
  const instance = useCurrentInstance();
  const update = useUpdateSettings();
  const [useDefaults, setUseDefaults] = useState(instance.settings.useCustomDefaults);
  const [value, setValue] = useState(() => toValue(instance.settings));
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  useEffect(() => {
    setUseDefaults(instance.settings.useCustomDefaults);
    setValue(toValue(instance.settings));
  }, [instance.settings]);

  const body: Partial<InstanceSettings> = useDefaults
    ? { useCustomDefaults: true }
    : {
        useCustomDefaults: false,
        webhookUrl: value.webhookUrl.trim(),
        eventSigningSecret: value.signingSecret,
        eventFilters: value.eventFilters,
        pullMode: value.pullMode,
        historySync: value.historySync,
      };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Saved: the generated secret is now the stored one, no longer "not saved yet".
    update.mutate({ id: instance.id, settings: body }, { onSuccess: () => setFreshSecret(null) });
  };
  const error = update.error ? describeError(update.error) : null;
  const urlError = error && /webhookUrl/i.test(error) ? error : null;

  return (
    <div className="stack">
      <form className="card" onSubmit={submit} aria-labelledby="webhook-title">
        <h2 id="webhook-title">Webhooks &amp; events</h2>
        <label className="check">
          <input type="checkbox" checked={useDefaults} onChange={(event) => setUseDefaults(event.target.checked)} />
          Use customer defaults
        </label>
        {useDefaults ? (
          <p className="muted">
            This instance follows your customer defaults. <Link to="/account">Edit the defaults</Link>, or untick to give it its own
            settings.
          </p>
        ) : (
          <EventSettingsFields
            value={value}
            onChange={setValue}
            urlError={urlError}
            freshSecret={freshSecret}
            onFreshSecret={setFreshSecret}
          />
        )}
        <div className="row">
          <button type="submit" className="button button-primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save settings'}
          </button>
          {update.isSuccess && !update.isPending && <span className="ok">Saved</span>}
        </div>
        <InlineError>{error && !urlError ? error : null}</InlineError>
        <CurlPreview
          request={{
            method: 'PUT',
            path: `${instancePath(instance.id)}/settings`,
            body: { ...body, ...(body.eventSigningSecret ? { eventSigningSecret: '<secret>' } : {}) },
          }}
        />
      </form>
      <WebhookTestCard />
    </div>
  );
}

function WebhookTestCard() {
  const instance = useCurrentInstance();
  const test = useTestWebhook();
  // A result (or refusal such as "no webhook URL") describes the settings it was sent with; once they change it is stale.
  const { reset } = test;
  useEffect(() => reset(), [instance.settings, reset]);
  const result = test.data;
  return (
    <section className="card" aria-labelledby="webhook-test-title">
      <h2 id="webhook-test-title">Send a test event</h2>
      <p className="muted">
        Delivers a signed <span className="mono">test</span> event to the effective webhook URL now and shows the receiver's answer.
      </p>
      <button type="button" className="button" onClick={() => test.mutate(instance.id)} disabled={test.isPending}>
        {test.isPending ? 'Sending…' : 'Send test event'}
      </button>
      <InlineError>{test.error ? describeError(test.error) : null}</InlineError>
      {result && (
        <div className={result.delivered ? 'notice notice-ok' : 'notice notice-error'} role="status" aria-label="Test result">
          <strong>
            {result.delivered
              ? `Delivered: ${result.statusCode ?? ''}`
              : `Not delivered${result.statusCode ? `: ${result.statusCode}` : ''}`}
          </strong>
          <p className="mono small">
            {result.url} · {result.durationMs} ms
          </p>
          {result.error && <p>{result.error}</p>}
          {result.responseSnippet && <pre className="snippet">{result.responseSnippet}</pre>}
        </div>
      )}
      <CurlPreview request={{ method: 'POST', path: `${instancePath(instance.id)}/webhook/test` }} />
    </section>
  );
}
