import { PaymentMethodForm } from '../../../components/card-form/payment-method-form';
import { DialogFrame } from '../../../components/dialog-frame';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { paymentProblemOf } from '../../../lib/payments/payment-problem';
import { toast } from '../../../lib/toast';
import { useShopPaymentClient } from '../api/get-shop-payment-client';
import type { PaymentMethodNonce, StoreSubscriptionView } from '../api/store-keys';
import { useUpdateSubscriptionPaymentMethod } from '../api/update-subscription-payment-method';
import { formatMoney } from '../lib/format';

/**
 * Puts a new card on a subscription, with the card form of the subscription's shop. A past-due
 * one is charged at once with it; when that is declined too, the reason shows here and another
 * card can be tried.
 */
export function UpdateCardDialog({
  userId,
  subscription,
  onClose,
}: {
  userId: string;
  subscription: StoreSubscriptionView;
  onClose: () => void;
}) {
  const client = useShopPaymentClient(userId, subscription.shop.id);
  const update = useUpdateSubscriptionPaymentMethod(userId, subscription.id);
  const pastDue = subscription.status === 'Past Due';

  const save = async (method: PaymentMethodNonce) => {
    await update.mutateAsync(method);
    toast.success(pastDue ? 'Your card is updated and what you owed is paid' : 'Your card is updated');
    onClose();
  };
  const problem = update.isError ? paymentProblemOf(update.error) : null;

  let form;
  if (client.data) {
    form = (
      <PaymentMethodForm
        client={client.data}
        label="New card"
        submitLabel={pastDue ? `Save card and pay ${formatMoney(subscription.balance)}` : 'Save card'}
        pendingLabel="Saving…"
        onPaymentMethod={save}
        problem={problem ? <p>{problem.message}</p> : null}
      />
    );
  } else if (client.isError) {
    form = (
      <ErrorState
        title="The card form could not be loaded"
        error={client.error}
        onRetry={() => void client.refetch()}
        retrying={client.isFetching}
        compact
      />
    );
  } else {
    form = <PageSpinner label="Loading the card form" />;
  }

  return (
    <DialogFrame
      title="Update your card"
      description={
        pastDue
          ? `Every charge for ${subscription.productTitle} goes to the new card from now on, starting with the ${formatMoney(subscription.balance)} owing, charged at once.`
          : `Every charge for ${subscription.productTitle} goes to the new card from now on.`
      }
      onClose={onClose}
      wide
    >
      {form}
    </DialogFrame>
  );
}
