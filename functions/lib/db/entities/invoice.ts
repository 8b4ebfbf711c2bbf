import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * 'open': payable. 'paying': one request holds it (until `payingUntil`) while the gateway
 * charges; every other request waits for its outcome instead of charging again. 'paid': done,
 * with what it bought. 'void': withdrawn, never payable again.
 */
export const INVOICE_STATUSES = ['open', 'paying', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * What a customer is about to buy, priced by the server from its own product data, then paid
 * exactly once. `attempt` counts the claims on it: the request that claimed attempt n is the only
 * one whose outcome is written back, so a request that outlived its claim cannot overwrite a
 * later one's. A customer's invoices are listed newest first through gsi1.
 */
export const createInvoiceEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'invoice', version: '1' },
      attributes: {
        invoiceId: { type: 'string', required: true },
        customerId: userIdAttribute,
        /** Who sells: 'platform' for the product's own plans; a merchant account id in the storefront. */
        sellerId: { type: 'string', required: true },
        purpose: { type: ['subscription', 'order'] as const, required: true },
        lines: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: {
              productId: { type: 'string', required: true },
              priceId: { type: 'string', required: true },
              description: { type: 'string', required: true },
              quantity: { type: 'number', required: true },
              amountMinor: { type: 'number', required: true },
              /** Storefront lines: sold once (part of the invoice's sale) or the first cycle of a subscription. */
              billing: { type: ['once', 'subscription'] as const },
              /** What a discount code takes off the line (all its units; a subscription line: each discounted cycle). */
              discountMinor: { type: 'number' },
            },
          },
        },
        /** The lines' amounts less their discounts. */
        totalMinor: { type: 'number', required: true },
        /** A shop's discount code the invoice is priced with (functions/penpay/lib/discounts.ts). */
        discount: {
          type: 'map',
          properties: {
            codeKey: { type: 'string', required: true },
            code: { type: 'string', required: true },
            appliesTo: { type: ['first', 'every'] as const, required: true },
            oncePerCustomer: { type: 'boolean', required: true },
          },
        },
        currency: { type: 'string', required: true },
        status: { type: INVOICE_STATUSES, required: true, default: 'open' },
        attempt: { type: 'number', required: true, default: 0 },
        payingUntil: { type: 'string' },
        lastDecline: {
          type: 'map',
          properties: {
            reason: { type: 'string', required: true },
            message: { type: 'string', required: true },
            at: { type: 'string', required: true },
          },
        },
        /** The card vaulted for this payment, kept so a payment resumed after a lapsed claim can still show it. */
        paymentMethod: {
          type: 'map',
          properties: {
            token: { type: 'string', required: true },
            cardType: { type: 'string', required: true },
            last4: { type: 'string', required: true },
            expirationDate: { type: 'string', required: true },
          },
        },
        /** The open-invoice pointer it is current under (openInvoice's priceId); absent on invoices made before pointers were checked. */
        openAs: { type: 'string' },
        /**
         * Set when a payment stopped after a charge was sent and its answer never came: money may
         * have moved. Such an invoice is not superseded by a change of its cart and stays payable
         * as itself, and paying it again finds what the gateway did before charging anything.
         */
        inDoubt: { type: 'boolean' },
        subscriptionId: { type: 'string' },
        /** Storefront invoices: every subscription the invoice started (one per subscription line, in line order). */
        subscriptionIds: { type: 'list', items: { type: 'string' } },
        transactionId: { type: 'string' },
        paidAt: { type: 'string' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['invoiceId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byCustomer: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'invoiceId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type InvoiceItem = EntityItem<ReturnType<typeof createInvoiceEntity>>;
