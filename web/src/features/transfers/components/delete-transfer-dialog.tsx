import { ConfirmDialog } from '../../../components/confirm-dialog';
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
  return (
    <ConfirmDialog
      title="Delete this transfer?"
      description={<>“{name}” and its files are deleted at once, and its link stops working for everyone it was sent to.</>}
      onClose={onClose}
      confirmLabel="Delete transfer"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate()}
      pending={remove.isPending}
      error={remove.isError ? remove.error.message || 'Deleting failed. Try again.' : null}
      confirmClassName={styles.danger}
    />
  );
}
