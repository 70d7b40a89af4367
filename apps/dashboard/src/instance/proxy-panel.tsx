import { useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../api/http';
import { instancePath, useUpdateSettings } from '../api/queries';
import type { InstanceDetailDto as Instance } from '@messaging-gateway/client';
import { CurlPreview } from '../components/curl-preview';
import { InlineError } from '../components/feedback';
import { useCurrentInstance } from './instance-page';

/** What each `statusReason` means for the person who can fix it. */
const REASONS: Record<Exclude<Instance['statusReason'], ''>, string> = {
  proxy_unreachable: 'The proxy cannot be reached (no answer, or the connection was refused). Check its address and that it runs.',
  proxy_auth_failed: 'The proxy refused the user name or password.',
  proxy_refused: 'The proxy would not open a tunnel to the network (its rules, or an error on its side).',
};

/** The instance's outbound proxy: shown with its password masked, set or removed; a change reconnects this instance only. */
export function ProxyPanel() {
  const instance = useCurrentInstance();
  const update = useUpdateSettings();
  const [proxyUrl, setProxyUrl] = useState(instance.settings.proxyUrl);
  useEffect(() => setProxyUrl(instance.settings.proxyUrl), [instance.settings.proxyUrl]);
  const save = (value: string) => update.mutate({ id: instance.id, settings: { proxyUrl: value } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(proxyUrl.trim());
  };
  const reason = instance.statusReason;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="proxy-title">
      <h2 id="proxy-title">Outbound proxy</h2>
      {reason !== '' && (
        <p className="notice notice-error" role="alert">
          <strong className="mono">{reason}</strong>: {REASONS[reason]}
        </p>
      )}
      <p className="muted">
        Everything this instance sends to the network (its connection and media) goes through this proxy.{' '}
        {instance.sandbox ? 'A sandbox instance keeps the setting but has no network to reach. ' : ''}
        {instance.settings.useCustomDefaults
          ? 'The instance follows the customer defaults, so the default proxy applies while that box is ticked. '
          : ''}
        The password is never shown; keep the masked value to keep it.
      </p>
      <label className="field">
        <span>Proxy URL</span>
        <input
          className="mono"
          value={proxyUrl}
          placeholder="http://user:password@proxy.example:3128 or socks5://proxy.example:1080"
          onChange={(event) => {
            setProxyUrl(event.target.value);
            update.reset();
          }}
        />
      </label>
      <div className="row">
        <button
          type="submit"
          className="button button-primary"
          disabled={update.isPending || proxyUrl.trim() === instance.settings.proxyUrl}
        >
          {update.isPending ? 'Saving…' : 'Save proxy'}
        </button>
        <button type="button" className="button" disabled={update.isPending || instance.settings.proxyUrl === ''} onClick={() => save('')}>
          Remove proxy
        </button>
        {update.isSuccess && !update.isPending && (
          <span className="ok" role="status">
            Proxy saved
          </span>
        )}
      </div>
      <InlineError>{update.error ? describeError(update.error) : null}</InlineError>
      {/* The stored value as shown (masked): sent back, it keeps the proxy, so the snippet is safe to paste. */}
      <CurlPreview
        request={{ method: 'PUT', path: `${instancePath(instance.id)}/settings`, body: { proxyUrl: instance.settings.proxyUrl } }}
      />
    </form>
  );
}
