import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface ConfirmButtonProps {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/** A button that asks first, in a modal dialog (focus trapped by the browser, Escape cancels). */
export function ConfirmButton({ label, title, children, confirmLabel, onConfirm, danger = true, disabled }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <>
      <button type="button" className={danger ? 'button button-danger' : 'button'} onClick={() => setOpen(true)} disabled={disabled}>
        {label}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onClose={() => setOpen(false)}>
        <h2 id={titleId}>{title}</h2>
        <div>{children}</div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setOpen(false)} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className={danger ? 'button button-danger' : 'button button-primary'}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
