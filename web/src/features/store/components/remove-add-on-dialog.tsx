import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useRemoveSubscriptionAddOn } from '../api/remove-subscription-add-on';
import type { StoreSubscriptionView } from '../api/store-keys';
import { formatDay } from '../lib/format';

/** Asks before taking an add-on off: it stops from the next cycle, and the current one is not refunded. */
export function RemoveAddOnDialog({
  userId,
  subscription,
  addOn,
  onClose,
}: {
  userId: string;
  subscription: StoreSubscriptionView;
  addOn: StoreSubscriptionView['addOns'][number];
  onClose: () => void;
}) {
  const remove = useRemoveSubscriptionAddOn(userId, subscription.id);
  const next = subscription.nextBillingDate ? formatDay(subscription.nextBillingDate) : null;
  const confirm = () =>
    remove.mutate(addOn.addOnId, {
      onSuccess: () => {
        toast.success(`${addOn.name} removed from ${subscription.productTitle}`);
        onClose();
      },
    });
  return (
    <ConfirmDialog
      title={`Remove ${addOn.name}?`}
      description={`It is no longer charged from your next billing day${next ? `, ${next}` : ''}. What you paid for the current period is not refunded.`}
      onClose={onClose}
      cancelLabel="Keep it"
      confirmLabel="Remove add-on"
      pendingLabel="Removing…"
      onConfirm={confirm}
      pending={remove.isPending}
      error={remove.isError ? remove.error.message || 'The add-on could not be removed. Try again.' : null}
      danger
    />
  );
}
