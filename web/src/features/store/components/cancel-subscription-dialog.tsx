import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useCancelSubscription } from '../api/cancel-subscription';
import type { StoreSubscriptionView } from '../api/store-keys';
import { formatDay } from '../lib/format';
import styles from './store.module.css';

/** Asks before canceling: nothing more is charged. */
export function CancelSubscriptionDialog({
  userId,
  subscription,
  onClose,
}: {
  userId: string;
  subscription: StoreSubscriptionView;
  onClose: () => void;
}) {
  const cancel = useCancelSubscription(userId, subscription.id);
  const paidThrough = subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        toast.success(`Your subscription to ${subscription.productTitle} is canceled`);
        onClose();
      },
    });
  return (
    <ConfirmDialog
      title="Cancel your subscription?"
      description={`Nothing more will be charged for ${subscription.productTitle}, ${subscription.gradeName}${paidThrough ? `. You have paid through ${paidThrough}` : ''}.`}
      onClose={onClose}
      cancelLabel="Keep subscription"
      confirmLabel="Cancel subscription"
      pendingLabel="Canceling…"
      onConfirm={confirm}
      pending={cancel.isPending}
      error={cancel.isError ? cancel.error.message || 'Canceling failed. Try again.' : null}
      confirmClassName={styles.danger}
    />
  );
}
