import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { isRecentLoginRequired, useDeleteAccount } from '../api/delete-account';
import styles from './account.module.css';
import { TextField } from '../../../components/text-field';

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

  const logInAgain = () => {
    onClose();
    loginModal.open();
  };

  return (
    <ConfirmDialog
      title="Delete your account?"
      description={<>This deletes @{username} for good and logs you out on every device.</>}
      onClose={onClose}
      confirmLabel="Delete account"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate()}
      pending={remove.isPending}
      ready={typed.trim() === username}
      error={
        remove.isError ? (
          <>
            <p>{remove.error.message || 'Deleting failed. Try again.'}</p>
            {isRecentLoginRequired(remove.error) ? (
              <Button size="small" onClick={logInAgain}>
                Log in again
              </Button>
            ) : null}
          </>
        ) : null
      }
      errorClassName={styles.alert}
      confirmClassName={styles.dangerButton}
    >
      <TextField
        label={`Type ${username} to confirm`}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
      />
    </ConfirmDialog>
  );
}
