import { CopyButton } from './copy-button';

/** A key, secret or link shown exactly once: a person must copy it now, and is told what stopped working. */
export function OneTimeSecret({
  label,
  value,
  warning,
  onDismiss,
}: {
  label: string;
  value: string;
  warning: string;
  onDismiss: () => void;
}) {
  return (
    <section className="secret" aria-label={label}>
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
