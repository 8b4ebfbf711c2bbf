import * as Dialog from '@radix-ui/react-dialog';
import type { FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { DialogFrame } from './dialog-frame';
import styles from './dialog.module.css';
import page from './page.module.css';

/**
 * Asks before an action that is hard to take back: a DialogFrame with Cancel and a confirm button
 * that says what it does (and what it is doing while the action runs), with why the action
 * failed in an alert above them. Open while mounted, as DialogFrame.
 *
 * Given children (a field to fill in first), the body is a form: Enter confirms, once `ready`.
 */
export function ConfirmDialog({
  title,
  description,
  onClose,
  confirmLabel,
  pendingLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  pending,
  ready = true,
  error,
  errorClassName = page.alert,
  confirmClassName,
  danger = false,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  onClose: () => void;
  /** The confirm button's words ("Delete transfer"), and its words while the action runs ("Deleting…"). */
  confirmLabel: string;
  pendingLabel: string;
  cancelLabel?: string;
  /** Called on the confirm button (or Enter, in a form) unless the action is running or the dialog is not ready. */
  onConfirm: () => void;
  /** The action is running: the confirm button is busy and disabled. */
  pending: boolean;
  /** False until confirming makes sense (a name still to be typed): the confirm button is disabled. */
  ready?: boolean;
  /** Why the action failed, in an alert above the buttons; none while empty. */
  error?: ReactNode;
  errorClassName?: string | undefined;
  /** The confirm button's colours (the feature's danger style). */
  confirmClassName?: string | undefined;
  /** The confirm button in the danger colours: what it does ends or removes something. */
  danger?: boolean;
  children?: ReactNode;
}) {
  const confirm = () => {
    if (ready && !pending) onConfirm();
  };
  const alert = error ? (
    <div className={errorClassName} role="alert">
      {error}
    </div>
  ) : null;
  const actions = (
    <div className={styles.actions}>
      <Dialog.Close asChild>
        <Button variant="secondary">{cancelLabel}</Button>
      </Dialog.Close>
      <Button
        type={children ? 'submit' : 'button'}
        className={[danger && styles.danger, confirmClassName].filter(Boolean).join(' ') || undefined}
        onClick={children ? undefined : confirm}
        disabled={!ready || pending}
        aria-busy={pending}
      >
        {pending ? pendingLabel : confirmLabel}
      </Button>
    </div>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };

  return (
    <DialogFrame title={title} description={description} onClose={onClose}>
      {children ? (
        <form className={styles.stack} onSubmit={submit}>
          {children}
          {alert}
          {actions}
        </form>
      ) : (
        <>
          {alert}
          {actions}
        </>
      )}
    </DialogFrame>
  );
}
