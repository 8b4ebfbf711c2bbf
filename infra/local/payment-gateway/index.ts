/**
 * The local payment gateway (Braintree's sandbox, locally): see server.ts for what it serves and
 * README-style notes on its routes.
 */
export { type LocalPaymentGateway, startLocalPaymentGateway, type StartLocalPaymentGatewayOptions } from './server';
export type { LocalGatewayPlan } from './state';
export type { GatewayEvent } from './billing';
export type { WebhookDelivery } from './webhooks';
