import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../button';
import type { PaymentMethodNonce } from '../../lib/payments/payment-method-nonce';
import pageStyles from '../page.module.css';

/** Uses the card's nonce; rejects when it did not go through (see PaymentFormProps). */
export type UsePaymentMethod = (method: PaymentMethodNonce) => Promise<unknown>;

/**
 * One attempt at a time. The ref, not only the disabled button, is what keeps a double click
 * from sending twice: the second click can arrive before the button is drawn disabled.
 */
export function usePaymentAttempt(onPaymentMethod: UsePaymentMethod) {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const attempt = useCallback(
    async (nonceFor: () => Promise<PaymentMethodNonce | null>, afterFailure?: () => void) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      try {
        const method = await nonceFor();
        if (!method) return;
        await onPaymentMethod(method).catch(() => afterFailure?.());
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [onPaymentMethod],
  );
  return { busy, attempt };
}

/** Below the card fields: why the last attempt failed (role="alert"), and the button. */
export function PaymentFormFooter({
  problem,
  busy,
  ready,
  submitLabel,
  pendingLabel,
  submitRef,
}: {
  problem: ReactNode;
  busy: boolean;
  ready: boolean;
  submitLabel: string;
  pendingLabel: string;
  submitRef?: RefObject<HTMLButtonElement | null>;
}) {
  const ownRef = useRef<HTMLButtonElement>(null);
  const button = submitRef ?? ownRef;
  const wasBusy = useRef(false);
  // A disabled button loses focus; a keyboard user who paid with Enter gets it back to try again.
  useEffect(() => {
    if (wasBusy.current && !busy && (document.activeElement === document.body || document.activeElement === null)) {
      button.current?.focus();
    }
    wasBusy.current = busy;
  }, [busy, button]);
  return (
    <>
      {problem ? (
        <div className={pageStyles.alert} role="alert">
          {problem}
        </div>
      ) : null}
      <Button ref={button} type="submit" block disabled={busy || !ready} aria-busy={busy || undefined}>
        {busy ? pendingLabel : submitLabel}
      </Button>
    </>
  );
}
