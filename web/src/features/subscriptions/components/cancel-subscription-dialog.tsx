import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useCancelSubscription } from '../api/cancel-subscription';
import type { SubscriptionView } from '../api/subscription-keys';
import { formatDate, formatDay } from '../lib/format';
import styles from './subscriptions.module.css';

/** The day Pro would end if canceled now: the last day paid for (or, past due, the grace period's end). */
function proStaysUntil(subscription: SubscriptionView): string | null {
  if (subscription.status === 'Past Due' && subscription.graceEndsAt) return formatDate(subscription.graceEndsAt);
  return subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
}

/** Asks before canceling: nothing more is charged, and Pro stays to the end of the period paid for. */
export function CancelSubscriptionDialog({
  userId,
  subscription,
  onClose,
}: {
  userId: string;
  subscription: SubscriptionView;
  onClose: () => void;
}) {
  const cancel = useCancelSubscription(userId, subscription.id);
  const until = proStaysUntil(subscription);

  const confirm = () => {
    cancel.mutate(undefined, {
      onSuccess: ({ subscription: canceled }) => {
        const endsOn = canceled.paidThroughDate ? formatDay(canceled.paidThroughDate) : until;
        toast.success(endsOn ? `Your subscription is canceled. You keep Pro until ${endsOn}.` : 'Your subscription is canceled.');
        onClose();
      },
    });
  };

  return (
    <ConfirmDialog
      title="Cancel your subscription?"
      description={
        <>
          Nothing more will be charged. Pro stays until the end of the period you have paid for
          {until ? `: you keep it until ${until}` : ''}, then your account goes back to Free.
        </>
      }
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
