import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { formatMoney, type Money } from '@shared/payments/money';
import type { PaymentClient } from '@shared/schemas/subscriptions';
import type { PaymentMethodNonce } from '../../lib/payments/payment-method-nonce';
import { paymentProblemOf } from '../../lib/payments/payment-problem';
import { toast } from '../../lib/toast';
import { QueriedPaymentMethodForm } from '../card-form/queried-payment-method-form';
import { DialogFrame } from '../dialog-frame';

/**
 * Puts a new card on a subscription, with the card form of the payment account it is charged
 * at. A past-due one is charged what it owes at once with it; when that is declined too, the
 * reason shows here and another card can be tried. Open while mounted, as DialogFrame.
 *
 * The feature gives its own query for the card form's client token and its own mutation.
 */
export function UpdateCardDialog<TResult>({
  subject,
  owing,
  client,
  update,
  onClose,
}: {
  /** What the card pays for, where there can be more than one ("Ink club, Ink of the month"). */
  subject?: string | undefined;
  /** What a past-due subscription owes, charged at once to the new card; null when nothing is. */
  owing: Money | null;
  /** The client token of the payment account the card is for. */
  client: UseQueryResult<PaymentClient>;
  /** Puts the card on the subscription (and pays what is owed): rejects with why it did not. */
  update: UseMutationResult<TResult, Error, PaymentMethodNonce>;
  onClose: () => void;
}) {
  const save = async (method: PaymentMethodNonce) => {
    await update.mutateAsync(method);
    toast.success(owing ? 'Your card is updated and what you owed is paid' : 'Your card is updated');
    onClose();
  };
  const problem = update.isError ? paymentProblemOf(update.error) : null;
  const forWhat = subject ? ` for ${subject}` : '';

  return (
    <DialogFrame
      title="Update your card"
      description={
        owing
          ? `Every charge${forWhat} goes to the new card from now on, starting with the ${formatMoney(owing)} owing, charged at once.`
          : `Every charge${forWhat} goes to the new card from now on.`
      }
      onClose={onClose}
      wide
    >
      <QueriedPaymentMethodForm
        client={client}
        label="New card"
        submitLabel={owing ? `Save card and pay ${formatMoney(owing)}` : 'Save card'}
        pendingLabel="Saving…"
        onPaymentMethod={save}
        problem={problem ? <p>{problem.message}</p> : null}
      />
    </DialogFrame>
  );
}
