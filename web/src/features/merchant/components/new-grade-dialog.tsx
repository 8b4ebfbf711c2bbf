import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useId, useState } from 'react';
import { createGradeBodySchema } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { DialogFrame } from '../../../components/dialog-frame';
import { MoneyInput, moneyInputText, parseMoneyInput } from '../../../components/money-input';
import { toast } from '../../../lib/toast';
import { useCreateGrade } from '../api/create-grade';
import { type FormErrors, errorMessage, formErrors, isConflict, issueErrors } from '../lib/form-errors';
import { ConnectFirst, NO_PLAN, PlanPicker, type SubscriptionChoice, subscriptionOf } from './plan-picker';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';
import styles from './merchant.module.css';

const FIELDS = ['name', 'description', 'amountMinor', 'subscription'] as const;
type Field = (typeof FIELDS)[number];
type Billing = 'once' | 'subscription';

const PRICE_FORMAT = 'Give the price as a number, such as 9.50';

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
  const billingName = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [billing, setBilling] = useState<Billing>('once');
  const [choice, setChoice] = useState<SubscriptionChoice>(NO_PLAN);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = (event: FormEvent) => {
    event.preventDefault();
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
    <DialogFrame
      title="New grade"
      description="A way to buy this product: sold once, or by subscription on one of your Braintree plans."
      onClose={onClose}
      wide
    >
      <form className={styles.form} onSubmit={submit} noValidate aria-label="New grade">
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
          hint={billing === 'subscription' ? 'Charged each billing cycle.' : 'Charged once.'}
          error={errors.fields.amountMinor}
        />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Billing</legend>
          <div className={styles.choices}>
            {(
              [
                ['once', 'Sold once', 'One payment; nothing more is charged.'],
                ['subscription', 'Subscription', 'Billed again each cycle of a plan in your Braintree account, until canceled.'],
              ] as const
            ).map(([value, label, detail]) => (
              <label key={value} className={styles.choice}>
                <input
                  type="radio"
                  name={billingName}
                  value={value}
                  checked={billing === value}
                  onChange={() => setBilling(value)}
                />
                <span className={styles.choiceText}>
                  <span className={styles.choiceName}>{label}</span>
                  <span className={styles.choiceDetail}>{detail}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
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
        <div className={styles.actions}>
          <Dialog.Close asChild>
            <Button variant="secondary">Cancel</Button>
          </Dialog.Close>
          <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add grade'}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}
