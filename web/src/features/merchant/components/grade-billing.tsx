import { type FormEvent, useId, useState } from 'react';
import { MoneyInput, moneyInputText, parseMoneyInput } from '../../../components/money-input';
import { Button } from '../../../components/button';
import { priceMinorSchema } from '@shared/schemas/merchant';
import { toast } from '../../../lib/toast';
import { useMyGatewayPlans } from '../api/list-my-gateway-plans';
import type { GradeView } from '../api/merchant-keys';
import { useUpdateGradeCost } from '../api/update-grade-cost';
import { useUpdateGradePlan } from '../api/update-grade-plan';
import { useUpdateGradeSubscription } from '../api/update-grade-subscription';
import { errorMessage, formErrors, isConflict } from '../lib/form-errors';
import { describePrice, everyMonths, formatMoney } from '../lib/format';
import { type Choice, ChoiceFieldset } from './choice-fieldset';
import { choiceOf, ConnectFirst, PlanPicker, type SubscriptionChoice, subscriptionOf } from './plan-picker';
import { FormAlert } from './form-alert';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/** A failed save in words: a 409 (no payment account) with the way to connect one. */
const KINDS: readonly Choice<GradeView['billing']['kind']>[] = [
  { value: 'once', name: 'Sell once', detail: 'One payment; nothing more is charged.' },
  {
    value: 'subscription',
    name: 'Subscription',
    detail: 'Billed each cycle of a plan in your Braintree account, until canceled.',
  },
];

function SaveProblem({ error, problem }: { error: Error | null; problem: string | null }) {
  if (problem) return <FormAlert message={problem} />;
  if (!error) return null;
  return isConflict(error) ? <ConnectFirst message={errorMessage(error)} /> : <FormAlert message={errorMessage(error)} />;
}

/** The grade's price, typed in the shop's currency and sent in cents. */
export function GradePriceSection({ userId, grade }: { userId: string; grade: GradeView }) {
  const titleId = useId();
  const update = useUpdateGradeCost(userId, grade.productStockId, grade.id);
  const [price, setPrice] = useState(moneyInputText(grade.price.amountMinor));
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const amountMinor = parseMoneyInput(price);
    const checked = priceMinorSchema.safeParse(amountMinor ?? Number.NaN);
    if (amountMinor === null || !checked.success) {
      setProblem(amountMinor === null ? 'Give the price as a number, such as 9.50' : (checked.error?.issues[0]?.message ?? null));
      return;
    }
    setProblem(null);
    update.mutate(checked.data, { onSuccess: (saved) => toast.success(`The price is now ${formatMoney(saved.price)}`) });
  };

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Price
      </h2>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={titleId}>
        <MoneyInput
          label="Price"
          currency={grade.price.currency}
          value={price}
          onChange={(value) => {
            setPrice(value);
            setProblem(null);
          }}
          hint={`Now ${describePrice(grade.price, grade.billing)}. Carts show a new price before anyone pays; subscribers keep theirs.`}
          error={problem ?? undefined}
        />
        {update.isError ? (
          <FormAlert
            message={formErrors(update.error, ['amountMinor'] as const).fields.amountMinor ?? errorMessage(update.error)}
          />
        ) : null}
        <div className={pageStyles.actions}>
          <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save price'}
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * How the grade is billed: sold once, or a subscription on a plan of the shop's Braintree account
 * with the add-ons offered. Existing subscribers keep what they bought.
 */
export function GradeBillingSection({ userId, grade, currency }: { userId: string; grade: GradeView; currency: string }) {
  const titleId = useId();
  const update = useUpdateGradeSubscription(userId, grade.productStockId, grade.id);
  const [kind, setKind] = useState<GradeView['billing']['kind']>(grade.billing.kind);
  const [choice, setChoice] = useState<SubscriptionChoice>(choiceOf(grade.billing));
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    let subscription = null;
    if (kind === 'subscription') {
      const picked = subscriptionOf(choice);
      if ('problem' in picked) {
        setProblem(picked.problem);
        return;
      }
      subscription = picked.subscription;
    }
    setProblem(null);
    update.mutate(
      { subscription },
      { onSuccess: () => toast.success(subscription ? 'Sold by subscription' : 'Sold once from now on') },
    );
  };

  const current =
    grade.billing.kind === 'subscription'
      ? `A subscription on the plan ${grade.billing.braintreePlanId}, billed ${everyMonths(grade.billing.billingFrequencyMonths)}${
          grade.billing.addOns.length
            ? `, with ${grade.billing.addOns.map((addOn) => `${addOn.name} (up to ${addOn.maxQuantity})`).join(', ')}`
            : ''
        }.`
      : 'Sold once.';

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Billing
      </h2>
      <p className={pageStyles.muted}>Now: {current} Existing subscribers keep what they bought.</p>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={titleId}>
        <ChoiceFieldset
          legend="How it is billed"
          hideLegend
          choices={KINDS}
          value={kind}
          onChange={(value) => {
            setKind(value);
            setProblem(null);
          }}
        />
        {kind === 'subscription' ? <PlanPicker userId={userId} currency={currency} value={choice} onChange={setChoice} /> : null}
        <SaveProblem error={update.isError ? update.error : null} problem={problem} />
        <div className={pageStyles.actions}>
          <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save billing'}
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * Moving a subscription grade to another plan, its add-ons as they are: new subscriptions use the
 * new plan, existing ones keep theirs. Only plans in the shop's currency are offered.
 */
export function GradePlanSection({ userId, grade, currency }: { userId: string; grade: GradeView; currency: string }) {
  const titleId = useId();
  const selectId = useId();
  const plans = useMyGatewayPlans(userId, grade.billing.kind === 'subscription');
  const update = useUpdateGradePlan(userId, grade.productStockId, grade.id);
  const currentPlan = grade.billing.kind === 'subscription' ? grade.billing.braintreePlanId : '';
  const [planId, setPlanId] = useState(currentPlan);
  if (grade.billing.kind !== 'subscription') return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || planId === currentPlan) return;
    update.mutate(planId, { onSuccess: () => toast.success(`New subscriptions use the plan ${planId}`) });
  };
  const offered = plans.data?.plans.filter((plan) => plan.price.currency === currency) ?? [];

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Plan
      </h2>
      <p className={pageStyles.muted}>
        New subscriptions use the plan chosen here; existing subscribers keep theirs. The add-ons stay as they are. Subscribers
        pay this grade’s price, {describePrice(grade.price, grade.billing)}, not the plan’s price in Braintree.
      </p>
      {plans.isError ? (
        isConflict(plans.error) ? (
          <ConnectFirst message={errorMessage(plans.error)} />
        ) : (
          <FormAlert message={`Your plans could not be loaded: ${errorMessage(plans.error)}`} />
        )
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={titleId}>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor={selectId}>
              Braintree plan
            </label>
            <select
              id={selectId}
              className={fieldStyles.control}
              value={planId}
              onChange={(event) => setPlanId(event.target.value)}
              disabled={!plans.data}
            >
              {offered.some((plan) => plan.id === currentPlan) ? null : <option value={currentPlan}>{currentPlan}</option>}
              {offered.map((plan) => (
                <option key={plan.id} value={plan.id}>
                  {plan.name} ({plan.id}): {everyMonths(plan.billingFrequencyMonths)}, Braintree price {formatMoney(plan.price)},
                  not charged
                </option>
              ))}
            </select>
          </div>
          <SaveProblem error={update.isError ? update.error : null} problem={null} />
          <div className={pageStyles.actions}>
            <Button type="submit" disabled={update.isPending || planId === currentPlan} aria-busy={update.isPending}>
              {update.isPending ? 'Moving…' : 'Move to this plan'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
