import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { CloseIcon } from '../../../components/icons';
import { useLoginModal } from '../../../lib/login-modal';
import { useReturnFocus } from '../../../lib/return-focus';
import { toast } from '../../../lib/toast';
import dialog from '../../../components/dialog.module.css';
import { isRecentLoginRequired, useDeleteAccount } from '../api/delete-account';
import styles from './account.module.css';
import { TextField } from './text-field';

/**
 * Asks the user to type their username before deleting. A login older than 15 minutes is
 * refused by the server: its message is shown with a way to log in again.
 */
export function DeleteAccountDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const loginModal = useLoginModal();
  const remove = useDeleteAccount({
    onDeleted: () => {
      toast.success('Your account was deleted');
      void navigate('/', { replace: true });
    },
  });
  const confirmed = typed.trim() === username;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && !remove.isPending) remove.mutate();
  };

  // Mounted only while open: the control focused at mount is the one that opened it.
  const returnFocus = useReturnFocus(true);

  const logInAgain = () => {
    onClose();
    loginModal.open();
  };

  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.modal} onCloseAutoFocus={returnFocus}>
          <Dialog.Close asChild>
            <Button variant="ghost" iconOnly className={dialog.close} aria-label="Close">
              <CloseIcon />
            </Button>
          </Dialog.Close>
          <Dialog.Title className={dialog.title}>Delete your account?</Dialog.Title>
          <Dialog.Description className={dialog.description}>
            This deletes @{username} for good and logs you out on every device.
          </Dialog.Description>
          <form className={dialog.stack} onSubmit={submit}>
            <TextField
              label={`Type ${username} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
            />
            {remove.isError ? (
              <div className={styles.alert} role="alert">
                <p>{remove.error.message || 'Deleting failed. Try again.'}</p>
                {isRecentLoginRequired(remove.error) ? (
                  <Button size="small" onClick={logInAgain}>
                    Log in again
                  </Button>
                ) : null}
              </div>
            ) : null}
            <div className={dialog.row}>
              <Dialog.Close asChild>
                <Button variant="secondary">Cancel</Button>
              </Dialog.Close>
              <Button
                type="submit"
                className={styles.dangerButton}
                disabled={!confirmed || remove.isPending}
                aria-busy={remove.isPending}
              >
                {remove.isPending ? 'Deleting…' : 'Delete account'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
