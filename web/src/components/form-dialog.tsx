import * as Dialog from '@radix-ui/react-dialog';
import type { FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { DialogFrame } from './dialog-frame';
import styles from './dialog.module.css';
import page from './page.module.css';

/**
 * A wide DialogFrame whose body is a form named by the title (a new product, a new grade): its
 * fields (and what failed, last), then Cancel and the submit button, which says what it does and
 * what it is doing while `pending`. Open while mounted, as DialogFrame.
 */
export function FormDialog({
  title,
  description,
  onClose,
  onSubmit,
  submitLabel,
  pendingLabel,
  pending,
  waitingLabel,
  children,
}: {
  title: string;
  description: ReactNode;
  onClose: () => void;
  /** Called on submit, its default already prevented. */
  onSubmit: () => void;
  /** The submit button's words ("Add grade"), and its words while `pending` ("Adding…"). */
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Set while the form cannot be sent yet (images uploading): the submit button is disabled and says it. */
  waitingLabel?: string | null | undefined;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <DialogFrame title={title} description={description} onClose={onClose} wide>
      <form className={styles.form} onSubmit={submit} noValidate aria-label={title}>
        {children}
        <div className={page.actions}>
          <Dialog.Close asChild>
            <Button variant="secondary">Cancel</Button>
          </Dialog.Close>
          <Button type="submit" disabled={pending || Boolean(waitingLabel)} aria-busy={pending}>
            {pending ? pendingLabel : (waitingLabel ?? submitLabel)}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}
