import { braintreeWebhookBodySchema, webhookAnswerSchema } from '../schemas/subscriptions';
import { defineRoute } from './define-route';

export const receiveBraintreeWebhook = defineRoute({
  method: 'POST',
  path: '/api/e/braintree/webhook',
  access: 'public',
  handler: 'subscriptions/receive-braintree-webhook',
  summary:
    "Braintree's webhook for the product's own subscriptions (a form with `bt_signature` and `bt_payload`). Authenticated only by the signature (401 and nothing changes when it does not match); each notification is stored once (a repeat is acknowledged and ignored), and the subscription's state is then read from the gateway, so a late or out-of-order delivery never rolls it back.",
  body: braintreeWebhookBodySchema,
  response: webhookAnswerSchema,
  acceptsFormBody: true,
  // Braintree's servers post without our header or an Origin: the signature is the authority.
  stateChanging: false,
  capabilities: { payments: true, email: true, realtime: true },
  timeoutSeconds: 25,
});

/** The group in listing order: a new route goes at the end. */
export const allPaymentRoutes = { receiveBraintreeWebhook };
