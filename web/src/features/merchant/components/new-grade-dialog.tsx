import { useState } from 'react';
import { createGradeBodySchema } from '@shared/schemas/merchant';
import { FormDialog } from '../../../components/form-dialog';
import { MoneyInput, moneyInputText, parseMoneyInput } from '../../../components/money-input';
import { toast } from '../../../lib/toast';
import { useCreateGrade } from '../api/create-grade';
import { type FormErrors, errorMessage, formErrors, isConflict, issueErrors } from '../lib/form-errors';
import { type Choice, ChoiceFieldset } from './choice-fieldset';
import { ConnectFirst, NO_PLAN, PlanPicker, type SubscriptionChoice, subscriptionOf } from './plan-picker';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';

const FIELDS = ['name', 'description', 'amountMinor', 'subscription'] as const;
type Field = (typeof FIELDS)[number];
type Billing = 'once' | 'subscription';

const PRICE_FORMAT = 'Give the price as a number, such as 9.50';

const BILLINGS: readonly Choice<Billing>[] = [
  { value: 'once', name: 'Sold once', detail: 'One payment; nothing more is charged.' },
  {
    value: 'subscription',
    name: 'Subscription',
    detail: 'Billed again each cycle of a plan in your Braintree account, until canceled.',
  },
];

/**
 * A new grade of a product: its name, a description, its price in the shop's currency (sent in
 * cents), and whether it is sold once or by subscription on a plan of the shop's Braintree
 * account, with the add-ons offered. The plans are asked for only once a subscription is chosen.
 */
export function NewGradeDialog({
  userId,
  productStockId,
  currency,
  onClose,
}: {
  userId: string;
  productStockId: string;
  currency: string;
  onClose: () => void;
}) {
  const create = useCreateGrade(userId, productStockId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [billing, setBilling] = useState<Billing>('once');
  const [choice, setChoice] = useState<SubscriptionChoice>(NO_PLAN);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = () => {
    if (create.isPending) return;
    const amountMinor = parseMoneyInput(price);
    let subscription = null;
    if (billing === 'subscription') {
      const picked = subscriptionOf(choice);
      if ('problem' in picked) {
        setErrors({ fields: { subscription: picked.problem } });
        return;
      }
      subscription = picked.subscription;
    }
    const checked = createGradeBodySchema.safeParse({ name, description, amountMinor: amountMinor ?? Number.NaN, subscription });
    if (!checked.success || amountMinor === null) {
      const found = checked.success ? { fields: {} } : issueErrors(checked.error.issues, FIELDS);
      setErrors(amountMinor === null ? { ...found, fields: { ...found.fields, amountMinor: PRICE_FORMAT } } : found);
      return;
    }
    setErrors({ fields: {} });
    create.mutate(checked.data, {
      onSuccess: (grade) => {
        toast.success(`${grade.name} is added`);
        onClose();
      },
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  return (
    <FormDialog
      title="New grade"
      description="A way to buy this product: sold once, or by subscription on one of your Braintree plans."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Add grade"
      pendingLabel="Adding…"
      pending={create.isPending}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={80}
        error={errors.fields.name}
      />
      <TextArea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        maxLength={2000}
        rows={3}
        error={errors.fields.description}
      />
      <MoneyInput
        label="Price"
        currency={currency}
        value={price}
        onChange={setPrice}
        hint={
          billing === 'subscription' ? 'Charged each billing cycle, in place of the plan’s price in Braintree.' : 'Charged once.'
        }
        error={errors.fields.amountMinor}
      />
      <ChoiceFieldset legend="Billing" choices={BILLINGS} value={billing} onChange={setBilling} />
      {billing === 'subscription' ? (
        <PlanPicker
          userId={userId}
          currency={currency}
          value={choice}
          onChange={setChoice}
          onPlanChosen={(plan) => {
            if (!price.trim()) setPrice(moneyInputText(plan.price.amountMinor));
          }}
        />
      ) : null}
      {create.isError && isConflict(create.error) ? (
        <ConnectFirst message={errorMessage(create.error)} />
      ) : (
        <FormAlert message={errors.fields.subscription ?? errors.form} />
      )}
    </FormDialog>
  );
}
