import { useId } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { MAX_ADD_ON_QUANTITY } from '@shared/schemas/merchant';
import { Spinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { useMyGatewayPlans } from '../api/list-my-gateway-plans';
import type { GatewayPlan, GradeView } from '../api/merchant-keys';
import { errorMessage, isConflict } from '../lib/form-errors';
import { everyMonths, formatMoney } from '../lib/format';
import { MERCHANT_PATH } from '../lib/paths';
import { ChoiceFieldset } from './choice-fieldset';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/** A plan chosen for a grade, and the add-ons offered with it: for each, the most a subscriber may take, as typed. */
export interface SubscriptionChoice {
  planId: string | null;
  addOns: Readonly<Record<string, string>>;
}

export const NO_PLAN: SubscriptionChoice = { planId: null, addOns: {} };

/** What a subscription grade offers now, as the picker starts from it. */
export function choiceOf(billing: GradeView['billing']): SubscriptionChoice {
  if (billing.kind !== 'subscription') return NO_PLAN;
  return {
    planId: billing.braintreePlanId,
    addOns: Object.fromEntries(billing.addOns.map((addOn) => [addOn.addOnId, String(addOn.maxQuantity)])),
  };
}

/** The choice as the API takes it, or what is wrong with it in words. */
export function subscriptionOf(
  choice: SubscriptionChoice,
): { subscription: { braintreePlanId: string; addOns: { addOnId: string; maxQuantity: number }[] } } | { problem: string } {
  if (!choice.planId) return { problem: 'Choose the plan subscribers are billed on.' };
  const addOns: { addOnId: string; maxQuantity: number }[] = [];
  for (const [addOnId, typed] of Object.entries(choice.addOns)) {
    const maxQuantity = Number(typed);
    if (!/^\d+$/.test(typed.trim()) || maxQuantity < 1 || maxQuantity > MAX_ADD_ON_QUANTITY) {
      return { problem: `The most a subscriber may take of an add-on is a whole number from 1 to ${MAX_ADD_ON_QUANTITY}.` };
    }
    addOns.push({ addOnId, maxQuantity });
  }
  return { subscription: { braintreePlanId: choice.planId, addOns } };
}

/**
 * A plan as a grade uses it: how often it bills, its currency and id. Its own price in Braintree
 * is said as not charged: the checkout creates each subscription with the grade's price, which
 * replaces the plan's (store-charges: createSubscription's `price`).
 */
export function planDetail(plan: GatewayPlan): string {
  return `${everyMonths(plan.billingFrequencyMonths)} · ${plan.price.currency} · id ${plan.id} · Braintree price ${formatMoney(plan.price)}, not charged`;
}

/** Which price a subscriber pays, said once above the plans. */
export const GRADE_PRICE_RULE =
  'Subscribers pay the grade’s price each billing cycle, not the plan’s price in Braintree: the plan sets how often they are billed and which add-ons can be offered.';

/** The shop cannot sell a subscription before its payment account is connected: said plainly, with the way to do it. */
export function ConnectFirst({ message }: { message: string }) {
  return (
    <div className={pageStyles.alert} role="alert">
      <p>{message}</p>
      <p>
        <Link to={MERCHANT_PATH}>Connect your payment account</Link> on your shop’s page, then come back.
      </p>
    </div>
  );
}

/**
 * The plans of the shop's Braintree account to bill a grade on, each with its price, how often
 * it bills and its currency (one in another currency than the shop's cannot be chosen), then the
 * chosen plan's add-ons to offer, each with the most a subscriber may take.
 */
export function PlanPicker({
  userId,
  currency,
  value,
  onChange,
  onPlanChosen,
}: {
  userId: string;
  /** The shop's currency: plans billed in another are shown but cannot be chosen. */
  currency: string;
  value: SubscriptionChoice;
  onChange: (choice: SubscriptionChoice) => void;
  /** Told when a plan is picked, with the plan: a price field may take its price. */
  onPlanChosen?: (plan: GatewayPlan) => void;
}) {
  const name = useId();
  const plans = useMyGatewayPlans(userId);

  if (plans.isPending) return <Spinner label="Loading your plans" />;
  if (plans.isError) {
    if (isConflict(plans.error)) return <ConnectFirst message={errorMessage(plans.error)} />;
    return (
      <ErrorState
        title="Your plans could not be loaded"
        error={plans.error}
        onRetry={() => void plans.refetch()}
        retrying={plans.isFetching}
        compact
      />
    );
  }
  const list = plans.data.plans;
  if (!list.length) {
    return (
      <p className={pageStyles.muted}>
        Your Braintree account has no plans yet. Add one in its Control Panel (Subscriptions › Plans), then come back.
      </p>
    );
  }
  const chosen = list.find((plan) => plan.id === value.planId);

  return (
    <>
      <ChoiceFieldset
        legend="Plan"
        choices={list.map((plan) => {
          const otherCurrency = plan.price.currency !== currency;
          return {
            value: plan.id,
            name: plan.name,
            detail: `${planDetail(plan)}${otherCurrency ? ` · not available: your shop sells in ${currency}` : ''}`,
            disabled: otherCurrency,
          };
        })}
        value={value.planId}
        onChange={(planId) => {
          // Add-ons belong to their plan: another plan starts with none chosen.
          onChange({ planId, addOns: {} });
          const plan = list.find((one) => one.id === planId);
          if (plan) onPlanChosen?.(plan);
        }}
      >
        <p className={styles.hint}>{GRADE_PRICE_RULE}</p>
        {value.planId && !chosen ? (
          <p className={styles.hint}>The plan {value.planId} is no longer in your Braintree account: choose another.</p>
        ) : null}
      </ChoiceFieldset>
      {chosen && chosen.addOns.length ? (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Add-ons to offer</legend>
          {chosen.addOns.map((addOn) => {
            const offered = value.addOns[addOn.id];
            return (
              <div key={addOn.id} className={styles.addOn}>
                <label className={styles.checkbox}>
                  <input
                    type="checkbox"
                    checked={offered !== undefined}
                    onChange={(event) => {
                      const addOns = { ...value.addOns };
                      if (event.target.checked) addOns[addOn.id] = '1';
                      else delete addOns[addOn.id];
                      onChange({ ...value, addOns });
                    }}
                  />
                  <span>
                    {addOn.name}: {formatMoney(addOn.price)} each, {everyMonths(chosen.billingFrequencyMonths)}
                  </span>
                </label>
                {offered !== undefined ? (
                  <div className={fieldStyles.field}>
                    <label className={fieldStyles.label} htmlFor={`${name}-${addOn.id}`}>
                      Most per subscriber<span className="visually-hidden"> ({addOn.name})</span>
                    </label>
                    <input
                      id={`${name}-${addOn.id}`}
                      className={fieldStyles.control}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={MAX_ADD_ON_QUANTITY}
                      step={1}
                      value={offered}
                      onChange={(event) => onChange({ ...value, addOns: { ...value.addOns, [addOn.id]: event.target.value } })}
                    />
                  </div>
                ) : null}
              </div>
            );
          })}
        </fieldset>
      ) : null}
    </>
  );
}
