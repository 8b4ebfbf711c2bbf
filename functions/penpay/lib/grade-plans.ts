/**
 * Subscription grades bill on a plan of the merchant's own Braintree account. What a grade
 * offers is checked against that account when it is set, so a customer is never offered a plan
 * or an add-on the gateway would refuse, or one in another currency than the shop's prices.
 */
import { fromDecimalAmount } from '../../../shared/payments/money';
import type * as z from '../../../shared/zod';
import {
  type gatewayPlansSchema,
  type gradeSubscriptionSchema,
  MAX_PRICE_MINOR,
  MIN_PRICE_MINOR,
} from '../../../shared/schemas/merchant';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { BadRequest } from '../../lib/errors';
import type { GatewayPlan } from '../../lib/payments/gateway';
import type { GradePlan } from './merchant-writes';
import { requireConnected } from './merchants';
import { shopGateway } from './shop-gateway';

type GradeSubscription = z.infer<typeof gradeSubscriptionSchema>;
type OfferedAddOn = GradeSubscription['addOns'][number];

/** The plans (with their add-ons) of the merchant's Braintree account; 409 while none is connected. */
export async function merchantPlans(db: Db, merchant: MerchantAccountItem): Promise<GatewayPlan[]> {
  requireConnected(merchant);
  return (await shopGateway(db, merchant)).listPlans();
}

/** A grade's subscription, checked against the merchant's plans: what the grade keeps. */
export async function checkedGradePlan(
  db: Db,
  merchant: MerchantAccountItem,
  subscription: GradeSubscription,
): Promise<GradePlan> {
  const plans = await merchantPlans(db, merchant);
  return gradePlanOn(plans, merchant, subscription.braintreePlanId, subscription.addOns);
}

/**
 * A subscription grade moved to another plan, with the add-ons it offers now: each must be one of
 * the new plan's too (at the price the grade set for it), or the move is refused.
 */
export async function movedGradePlan(
  db: Db,
  merchant: MerchantAccountItem,
  current: GradePlan,
  braintreePlanId: string,
): Promise<GradePlan> {
  const plans = await merchantPlans(db, merchant);
  const offered = current.addOns.map(({ addOnId, amountMinor, maxQuantity }) => ({ addOnId, amountMinor, maxQuantity }));
  return gradePlanOn(plans, merchant, braintreePlanId, offered);
}

export function gradePlanOn(
  plans: readonly GatewayPlan[],
  merchant: Pick<MerchantAccountItem, 'currency'>,
  braintreePlanId: string,
  offered: readonly OfferedAddOn[],
): GradePlan {
  const plan = plans.find((candidate) => candidate.id === braintreePlanId);
  if (!plan) {
    const known = plans.map((candidate) => `"${candidate.id}"`).join(', ');
    throw new BadRequest(
      `Your Braintree account has no plan "${braintreePlanId}". ${known ? `Its plans: ${known}.` : 'Add a plan in its Control Panel (Subscriptions, Plans) first.'}`,
    );
  }
  if (plan.currency !== merchant.currency) {
    throw new BadRequest(
      `Plan "${plan.id}" bills in ${plan.currency}, but your shop sells in ${merchant.currency}: choose a plan in ${merchant.currency}.`,
    );
  }
  const seen = new Set<string>();
  const addOns = offered.map((offer) => {
    if (seen.has(offer.addOnId)) throw new BadRequest(`Add-on "${offer.addOnId}" is offered twice: offer each add-on once.`);
    seen.add(offer.addOnId);
    const addOn = plan.addOns.find((candidate) => candidate.id === offer.addOnId);
    if (!addOn) {
      const known = plan.addOns.map((candidate) => `"${candidate.id}"`).join(', ');
      throw new BadRequest(
        `Plan "${plan.id}" has no add-on "${offer.addOnId}". ${known ? `Its add-ons: ${known}.` : 'It has no add-ons.'}`,
      );
    }
    const amountMinor = offer.amountMinor ?? fromDecimalAmount(addOn.amount);
    if (amountMinor < MIN_PRICE_MINOR || amountMinor > MAX_PRICE_MINOR) {
      throw new BadRequest(
        `Braintree's price of add-on "${addOn.id}" (${addOn.amount}) is outside what the shop can charge (0.50 to 100,000.00): give the add-on its own amountMinor.`,
      );
    }
    return { addOnId: addOn.id, name: addOn.name, amountMinor, maxQuantity: offer.maxQuantity };
  });
  return { braintreePlanId: plan.id, billingFrequencyMonths: plan.billingFrequency, addOns };
}

export function toGatewayPlansView(plans: readonly GatewayPlan[]): z.infer<typeof gatewayPlansSchema> {
  return {
    plans: plans.map((plan) => ({
      id: plan.id,
      name: plan.name,
      price: { amountMinor: fromDecimalAmount(plan.price), currency: plan.currency },
      billingFrequencyMonths: plan.billingFrequency,
      addOns: plan.addOns.map((addOn) => ({
        id: addOn.id,
        name: addOn.name,
        price: { amountMinor: fromDecimalAmount(addOn.amount), currency: plan.currency },
      })),
    })),
  };
}
