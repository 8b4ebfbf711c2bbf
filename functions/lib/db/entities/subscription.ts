import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

export const STORED_SUBSCRIPTION_STATUSES = ['Pending', 'Active', 'Past Due', 'Canceled', 'Expired'] as const;

/**
 * A customer's subscription as the gateway last described it (its id is the gateway's), with
 * what only we know: when it went past due, when the customer canceled, the card shown. A copy is
 * replaced only by a later one of the gateway's (`gatewayVersion`: its change time, then its charges), so webhooks that arrive
 * late or out of order never roll it back. A customer's subscriptions to one product are
 * listed newest first through gsi1, a seller's through gsi2 (reconciliation).
 */
export const createSubscriptionEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'subscription', version: '1' },
      attributes: {
        subscriptionId: { type: 'string', required: true },
        customerId: userIdAttribute,
        sellerId: { type: 'string', required: true },
        productId: { type: 'string', required: true },
        priceId: { type: 'string', required: true },
        gatewayPlanId: { type: 'string', required: true },
        invoiceId: { type: 'string', required: true },
        status: { type: STORED_SUBSCRIPTION_STATUSES, required: true },
        priceMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        billingFrequencyMonths: { type: 'number', required: true },
        billingPeriodStartDate: { type: 'string' },
        billingPeriodEndDate: { type: 'string' },
        paidThroughDate: { type: 'string' },
        nextBillingDate: { type: 'string' },
        failureCount: { type: 'number', required: true, default: 0 },
        balanceMinor: { type: 'number', required: true, default: 0 },
        /** When it went past due (ISO): the grace period runs from here. */
        pastDueSince: { type: 'string' },
        canceledAt: { type: 'string' },
        /**
         * On a canceled subscription: the one that resumes it (a new one at the gateway, billing from
         * the day after this one's paid time). Set by the conditional write that claims the resume,
         * before the gateway is called; its id is derived from this one's, so the gateway holds one at most.
         */
        resumedAs: { type: 'string' },
        /** On a subscription that resumes a canceled one: that one's id. */
        resumedFrom: { type: 'string' },
        /** Held (ISO, a lease) by the one request whose change charges money now (a past-due balance, a prorated add-on). */
        chargingUntil: { type: 'string' },
        paymentMethod: {
          type: 'map',
          required: true,
          properties: {
            token: { type: 'string', required: true },
            cardType: { type: 'string', required: true },
            last4: { type: 'string', required: true },
            expirationDate: { type: 'string', required: true },
          },
        },
        /** Add-ons on it, as the gateway last described them, with the names the grade gave them (storefront). */
        addOns: {
          type: 'list',
          items: {
            type: 'map',
            properties: {
              addOnId: { type: 'string', required: true },
              name: { type: 'string', required: true },
              quantity: { type: 'number', required: true },
              amountMinor: { type: 'number', required: true },
            },
          },
        },
        /** Orders copies of the gateway's state: its change time, its charge count, whether it ended (gatewayVersionOf). */
        gatewayVersion: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['subscriptionId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byCustomer: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['sellerId', 'productId', 'createdAt'], casing: 'none' },
        },
        /** A seller's subscriptions, oldest first: what reconciliation compares with the gateway's. */
        bySeller: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['sellerId'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['createdAt', 'subscriptionId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type SubscriptionItem = EntityItem<ReturnType<typeof createSubscriptionEntity>>;
