import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../../components/button';
import { CloseIcon } from '../../../components/icons';
import dialog from '../../../components/dialog.module.css';
import { useReturnFocus } from '../../../lib/return-focus';
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
  const returnFocus = useReturnFocus(true);
  const until = proStaysUntil(subscription);

  const confirm = () => {
    if (cancel.isPending) return;
    cancel.mutate(undefined, {
      onSuccess: ({ subscription: canceled }) => {
        const endsOn = canceled.paidThroughDate ? formatDay(canceled.paidThroughDate) : until;
        toast.success(endsOn ? `Your subscription is canceled. You keep Pro until ${endsOn}.` : 'Your subscription is canceled.');
        onClose();
      },
    });
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
          <Dialog.Title className={dialog.title}>Cancel your subscription?</Dialog.Title>
          <Dialog.Description className={dialog.description}>
            Nothing more will be charged. Pro stays until the end of the period you have paid for
            {until ? `: you keep it until ${until}` : ''}, then your account goes back to Free.
          </Dialog.Description>
          {cancel.isError ? (
            <p className={styles.alert} role="alert">
              {cancel.error.message || 'Canceling failed. Try again.'}
            </p>
          ) : null}
          <div className={styles.dialogActions}>
            <Dialog.Close asChild>
              <Button variant="secondary">Keep subscription</Button>
            </Dialog.Close>
            <Button
              className={styles.danger}
              onClick={confirm}
              disabled={cancel.isPending}
              aria-busy={cancel.isPending || undefined}
            >
              {cancel.isPending ? 'Canceling…' : 'Cancel subscription'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
