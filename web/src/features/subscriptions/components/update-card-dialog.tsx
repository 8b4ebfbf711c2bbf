import { PaymentMethodForm } from '../../../components/card-form/payment-method-form';
import { DialogFrame } from '../../../components/dialog-frame';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { toast } from '../../../lib/toast';
import { usePaymentClientToken } from '../api/get-payment-client-token';
import type { PaymentMethodNonce, SubscriptionView } from '../api/subscription-keys';
import { useUpdateSubscriptionPaymentMethod } from '../api/update-subscription-payment-method';
import { formatMoney } from '../lib/format';
import { paymentProblemOf } from '../../../lib/payments/payment-problem';

/**
 * Puts a new card on the subscription, with the same card form as the checkout. A past-due
 * subscription is charged at once with it; when that is declined, the reason shows here and
 * another card can be tried.
 */
export function UpdateCardDialog({
  userId,
  subscription,
  onClose,
}: {
  userId: string;
  subscription: SubscriptionView;
  onClose: () => void;
}) {
  const client = usePaymentClientToken(userId);
  const update = useUpdateSubscriptionPaymentMethod(userId, subscription.id);
  const pastDue = subscription.status === 'Past Due';

  const save = async (method: PaymentMethodNonce) => {
    const { subscription: updated } = await update.mutateAsync(method);
    toast.success(
      pastDue && updated.status === 'Active' ? 'Your card is updated and the payment went through' : 'Your card is updated',
    );
    onClose();
  };
  const problem = update.isError ? paymentProblemOf(update.error) : null;

  let form;
  if (client.data) {
    form = (
      <PaymentMethodForm
        client={client.data}
        label="New card"
        submitLabel="Save card"
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
          ? `Every charge goes to the new card from now on, starting with the ${formatMoney(subscription.balance)} owing, charged at once.`
          : 'Every charge goes to the new card from now on.'
      }
      onClose={onClose}
      wide
    >
      {form}
    </DialogFrame>
  );
}
