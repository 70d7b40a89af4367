import type { ReactNode } from 'react';
import { describeError } from '../api/http';

export function LoadingBlock({ label }: { label: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}…
    </div>
  );
}

/** A failure as a person reads it: the API's own detail and a way forward, never a stack trace. */
export function ErrorNotice({
  error,
  title = 'This could not be loaded',
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}</strong>
      <p>{describeError(error)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A field-level or form-level refusal, announced to screen readers. */
export function InlineError({ id, children }: { id?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="inline-error" id={id} role="alert">
      {children}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  );
}
