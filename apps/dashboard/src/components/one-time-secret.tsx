import { CopyButton } from './copy-button';

/** A key, secret or link shown exactly once: a person must copy it now, and is told what stopped working. */
export function OneTimeSecret({
  label,
  title,
  value,
  warning,
  onDismiss,
}: {
  label: string;
  /** A visible heading naming what the secret belongs to, when several cards can be open at once. */
  title?: string;
  value: string;
  warning: string;
  onDismiss: () => void;
}) {
  return (
    <section className="secret" aria-label={label}>
      {title && <h2 className="secret-title">{title}</h2>}
      <p className="secret-warning">
        <strong>Shown only once.</strong> {warning}
      </p>
      <div className="secret-row">
        <code className="secret-value" aria-label={label}>
          {value}
        </code>
        <CopyButton text={value} />
      </div>
      <button type="button" className="button button-quiet" onClick={onDismiss}>
        I have stored it
      </button>
    </section>
  );
}
