/** What the card form hands over: a single-use nonce for the card (never the card itself), and Braintree's device data. */
export interface PaymentMethodNonce {
  nonce: string;
  deviceData?: string | undefined;
}
