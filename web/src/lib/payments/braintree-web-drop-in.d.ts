/**
 * The part of Braintree's Drop-in (braintree-web-drop-in, which ships no types) the card form
 * uses: https://braintree.github.io/braintree-web-drop-in/docs/current/
 */
declare module 'braintree-web-drop-in' {
  export interface PaymentMethodPayload {
    nonce: string;
    /** Only when the data collector is on. */
    deviceData?: string;
    type: string;
    details: Record<string, unknown>;
  }

  export interface Dropin {
    requestPaymentMethod(): Promise<PaymentMethodPayload>;
    clearSelectedPaymentMethod(): void;
    isPaymentMethodRequestable(): boolean;
    teardown(): Promise<void>;
    on(event: 'paymentMethodRequestable' | 'noPaymentMethodRequestable' | 'paymentOptionSelected', handler: () => void): void;
  }

  export interface DropinCreateOptions {
    authorization: string;
    container: HTMLElement | string;
    locale?: string;
    vaultManager?: boolean;
    preselectVaultedPaymentMethod?: boolean;
    card?: false | { cardholderName?: boolean | { required?: boolean }; overrides?: Record<string, unknown> };
    dataCollector?: boolean | Record<string, unknown>;
  }

  export function create(options: DropinCreateOptions): Promise<Dropin>;

  const dropin: { create: typeof create; VERSION: string };
  export default dropin;
}
