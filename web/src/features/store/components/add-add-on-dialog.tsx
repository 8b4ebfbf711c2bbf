import { useId, useState } from 'react';
import { addOnBodySchema } from '@shared/schemas/store';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { paymentProblemOf } from '../../../lib/payments/payment-problem';
import { toast } from '../../../lib/toast';
import { useAddSubscriptionAddOn } from '../api/add-subscription-add-on';
import type { AddOnOffer, StoreSubscriptionView } from '../api/store-keys';
import { everyCycle, formatDay, formatMoney, proratedEstimate, times } from '../lib/format';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';

/** What adding costs: more every cycle from now on, and today a prorated part of the current cycle. */
function Explanation({ subscription, offer, extra }: { subscription: StoreSubscriptionView; offer: AddOnOffer; extra: number }) {
  if (extra <= 0) return null;
  const perCycle = times(offer.price, extra);
  const estimate = proratedEstimate(subscription, perCycle);
  const cycle = everyCycle(subscription.billingFrequencyMonths);
  return (
    <p className={pageStyles.muted}>
      {formatMoney(perCycle)} more {cycle} from now on. Today you are charged for the rest of the current period only, prorated
      {estimate && subscription.nextBillingDate
        ? `: about ${formatMoney(estimate.amount)} for the ${estimate.daysLeft} ${estimate.daysLeft === 1 ? 'day' : 'days'} until ${formatDay(subscription.nextBillingDate)}.`
        : '.'}
    </p>
  );
}

/**
 * Adds an add-on the grade offers (or more of one already there). The rest of the current cycle
 * is charged at once, prorated as the payment provider does; a declined charge changes nothing
 * and says why here.
 */
export function AddAddOnDialog({
  userId,
  subscription,
  onClose,
}: {
  userId: string;
  subscription: StoreSubscriptionView;
  onClose: () => void;
}) {
  const addOnFieldId = useId();
  const quantityId = useId();
  const quantityHintId = useId();
  const quantityErrorId = useId();
  const offers = subscription.availableAddOns;
  const owned = (addOnId: string) => subscription.addOns.find((addOn) => addOn.addOnId === addOnId)?.quantity ?? 0;
  const [addOnId, setAddOnId] = useState(offers[0]?.addOnId ?? '');
  const [quantityText, setQuantityText] = useState(String(owned(offers[0]?.addOnId ?? '') + 1));
  const [invalid, setInvalid] = useState<string | null>(null);
  const add = useAddSubscriptionAddOn(userId, subscription.id);

  const offer = offers.find((candidate) => candidate.addOnId === addOnId);
  const have = owned(addOnId);
  const quantity = Number(quantityText);

  const choose = (next: string) => {
    setAddOnId(next);
    setQuantityText(String(owned(next) + 1));
    setInvalid(null);
  };

  const confirm = () => {
    if (!offer) return;
    const parsed = addOnBodySchema.safeParse({ addOnId, quantity: quantityText.trim() === '' ? Number.NaN : quantity });
    let problem: string | null = null;
    if (!parsed.success) problem = 'Choose how many, as a whole number';
    else if (parsed.data.quantity > offer.maxQuantity) problem = `At most ${offer.maxQuantity} of ${offer.name}`;
    else if (parsed.data.quantity <= have) problem = `You have ${have} already: choose more than ${have}`;
    setInvalid(problem);
    if (problem || !parsed.success) return;
    add.mutate(parsed.data, {
      onSuccess: () => {
        toast.success(`${offer.name} added to ${subscription.productTitle}`);
        onClose();
      },
    });
  };

  const error = add.isError ? paymentProblemOf(add.error).message : null;
  return (
    <ConfirmDialog
      title="Add an add-on"
      description={`To ${subscription.productTitle}, ${subscription.gradeName}.`}
      onClose={onClose}
      confirmLabel="Add and pay now"
      pendingLabel="Adding…"
      onConfirm={confirm}
      pending={add.isPending}
      ready={Boolean(offer)}
      error={error}
    >
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={addOnFieldId}>
          Add-on
        </label>
        <select
          id={addOnFieldId}
          className={fieldStyles.control}
          value={addOnId}
          onChange={(event) => choose(event.target.value)}
        >
          {offers.map((candidate) => (
            <option key={candidate.addOnId} value={candidate.addOnId}>
              {candidate.name}, {formatMoney(candidate.price)} {everyCycle(subscription.billingFrequencyMonths)}
            </option>
          ))}
        </select>
      </div>
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={quantityId}>
          Quantity
        </label>
        <input
          id={quantityId}
          className={fieldStyles.control}
          type="number"
          inputMode="numeric"
          min={have + 1}
          max={offer?.maxQuantity}
          step={1}
          value={quantityText}
          onChange={(event) => setQuantityText(event.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[quantityHintId, invalid ? quantityErrorId : null].filter(Boolean).join(' ')}
        />
        <p id={quantityHintId} className={pageStyles.muted}>
          {have ? `You have ${have} now; ` : ''}up to {offer?.maxQuantity ?? 1} in all.
        </p>
        {invalid ? (
          <p id={quantityErrorId} className={fieldStyles.error} role="alert">
            {invalid}
          </p>
        ) : null}
      </div>
      {offer && Number.isInteger(quantity) ? (
        <Explanation subscription={subscription} offer={offer} extra={quantity - have} />
      ) : null}
    </ConfirmDialog>
  );
}
