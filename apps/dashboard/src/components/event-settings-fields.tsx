import { EVENT_TYPES, SESSION_EVENT_TYPES, type EventType } from '@contracts/events';
import { CopyButton } from './copy-button';
import { InlineError } from './feedback';

export interface EventSettingsValue {
  webhookUrl: string;
  signingSecret: string;
  eventFilters: EventType[];
  pullMode: boolean;
  historySync: boolean;
}

/** A Standard Webhooks secret: whsec_ and base64 of 32 random bytes, made in the browser and never sent elsewhere. */
export function generateSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

interface Props {
  value: EventSettingsValue;
  onChange: (value: EventSettingsValue) => void;
  /** The server's refusal of the URL (SSRF rules, format), shown beside the field. */
  urlError?: string | null;
  /** A secret generated in this visit: shown once with a copy button until saved and dismissed. */
  freshSecret: string | null;
  onFreshSecret: (secret: string | null) => void;
  disabled?: boolean;
}

/** The webhook and event fields shared by an instance's own settings and the customer defaults. */
export function EventSettingsFields({ value, onChange, urlError, freshSecret, onFreshSecret, disabled }: Props) {
  const set = (patch: Partial<EventSettingsValue>) => onChange({ ...value, ...patch });
  const toggleFilter = (type: EventType) =>
    set({
      eventFilters: value.eventFilters.includes(type) ? value.eventFilters.filter((item) => item !== type) : [...value.eventFilters, type],
    });
  const isSession = (type: string) => (SESSION_EVENT_TYPES as readonly string[]).includes(type);
  return (
    <fieldset className="settings-fields" disabled={disabled}>
      <label className="field">
        <span>Webhook URL</span>
        <input
          type="url"
          placeholder="https://example.com/hooks/whatsapp"
          value={value.webhookUrl}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? 'webhook-url-error' : undefined}
          onChange={(event) => set({ webhookUrl: event.target.value })}
        />
        <InlineError id="webhook-url-error">{urlError}</InlineError>
      </label>
      <div className="field">
        <span>Signing secret</span>
        <div className="row">
          <span className="muted">
            {value.signingSecret ? (freshSecret ? 'New secret, not saved yet' : 'A secret is set') : 'No secret: deliveries are unsigned'}
          </span>
          <button
            type="button"
            className="button"
            onClick={() => {
              const secret = generateSigningSecret();
              onFreshSecret(secret);
              set({ signingSecret: secret });
            }}
          >
            Generate signing secret
          </button>
          {value.signingSecret && (
            <button type="button" className="button button-quiet" onClick={() => set({ signingSecret: '' })}>
              Remove secret
            </button>
          )}
        </div>
        {freshSecret && (
          <div className="secret">
            <p className="secret-warning">
              <strong>Copy it now.</strong> Your receiver verifies signatures with it; once saved the old secret stops signing.
            </p>
            <div className="secret-row">
              <code className="secret-value" aria-label="New signing secret">
                {freshSecret}
              </code>
              <CopyButton text={freshSecret} />
            </div>
          </div>
        )}
      </div>
      <label className="check">
        <input type="checkbox" checked={value.pullMode} onChange={(event) => set({ pullMode: event.target.checked })} />
        Pull mode: keep events for GET /events and the stream instead of sending them to the webhook
      </label>
      <label className="check">
        <input type="checkbox" checked={value.historySync} onChange={(event) => set({ historySync: event.target.checked })} />
        History sync: deliver the chat history after pairing
      </label>
      <fieldset className="filters">
        <legend>
          Event types delivered {value.eventFilters.length === 0 ? '(all: none ticked)' : `(${value.eventFilters.length} ticked)`}
        </legend>
        <div className="filter-grid">
          {EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input
                type="checkbox"
                checked={isSession(type) || value.eventFilters.includes(type)}
                disabled={isSession(type)}
                onChange={() => toggleFilter(type)}
              />
              <span className="mono">{type}</span>
            </label>
          ))}
        </div>
        <p className="muted small">Session events (logged_in, logged_out, …) always pass. Tick none to receive everything.</p>
      </fieldset>
    </fieldset>
  );
}
