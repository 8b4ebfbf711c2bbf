import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../../components/button';
import { CloseIcon } from '../../../components/icons';
import dialog from '../../../components/dialog.module.css';
import { useReturnFocus } from '../../../lib/return-focus';
import { useDeleteTransfer } from '../api/delete-transfer';
import styles from './transfers.module.css';

/** Asks before deleting a transfer: its files go at once and its link stops working. */
export function DeleteTransferDialog({
  transferId,
  name,
  onClose,
  onDeleted,
}: {
  transferId: string;
  name: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteTransfer(transferId, { onDeleted });
  // Mounted only while open: the control focused at mount is the one that opened it.
  const returnFocus = useReturnFocus(true);
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
          <Dialog.Title className={dialog.title}>Delete this transfer?</Dialog.Title>
          <Dialog.Description className={dialog.description}>
            “{name}” and its files are deleted at once, and its link stops working for everyone it was sent to.
          </Dialog.Description>
          {remove.isError ? (
            <p className={styles.alert} role="alert">
              {remove.error.message || 'Deleting failed. Try again.'}
            </p>
          ) : null}
          <div className={dialog.row}>
            <Dialog.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </Dialog.Close>
            <Button
              className={styles.danger}
              onClick={() => remove.mutate()}
              disabled={remove.isPending}
              aria-busy={remove.isPending}
            >
              {remove.isPending ? 'Deleting…' : 'Delete transfer'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
