import type { ReactNode } from 'react';
import type { PaymentClient } from '@shared/schemas/subscriptions';
import type { PaymentMethodNonce } from '../../lib/payments/payment-method-nonce';
import { DropInCardForm } from './drop-in-card-form';
import { LocalCardForm } from './local-card-form';

export interface PaymentFormProps {
  /** The form's accessible name ("Card details"). */
  label: string;
  /** The button's words ("Pay $12.00", "Save card") and while it works ("Paying…"). */
  submitLabel: string;
  pendingLabel: string;
  /**
   * Uses the card's nonce (pays, or saves the card). Rejects when it did not go through: the
   * form then takes another attempt, with a new nonce.
   */
  onPaymentMethod: (method: PaymentMethodNonce) => Promise<unknown>;
  /** Why the last attempt failed, said beside the form (the caller's words: a decline, an outage). */
  problem?: ReactNode;
}

/**
 * The card form for the gateway the server names: the local payment gateway's own form (`npm
 * start` and the tests), or Braintree's Drop-in. Either way only a single-use nonce leaves it:
 * the card goes from the browser straight to the gateway.
 */
export function PaymentMethodForm({ client, ...props }: PaymentFormProps & { client: PaymentClient }) {
  return client.environment === 'local' ? (
    <LocalCardForm clientToken={client.clientToken} {...props} />
  ) : (
    <DropInCardForm clientToken={client.clientToken} {...props} />
  );
}
