import type { Dropin } from 'braintree-web-drop-in';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Spinner } from '../spinner';
import type { PaymentFormProps } from './payment-method-form';
import { PaymentFormFooter, usePaymentAttempt } from './payment-form-parts';
import pageStyles from '../page.module.css';
import styles from './card-form.module.css';

/**
 * Braintree's Drop-in (sandbox and production). Its code (about 500 kB minified) is downloaded only when a
 * card form is shown. The card is typed into Braintree's own frames and tokenized by Braintree:
 * only the nonce comes back to the page.
 */
export function DropInCardForm({
  clientToken,
  label,
  submitLabel,
  pendingLabel,
  onPaymentMethod,
  problem,
}: PaymentFormProps & { clientToken: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [dropin, setDropin] = useState<Dropin | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const { busy, attempt } = usePaymentAttempt(onPaymentMethod);

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    // Drop-in wants an empty container, and its teardown is asynchronous: each mount gets a
    // fresh one, so a quick remount (React's strict mode does one) never finds the last one's.
    const container = document.createElement('div');
    parent.appendChild(container);
    let live = true;
    let created: Dropin | undefined;
    import('braintree-web-drop-in')
      .then(({ default: braintree }) => braintree.create({ authorization: clientToken, container }))
      .then((instance) => {
        created = instance;
        if (live) setDropin(instance);
        else void instance.teardown().catch(() => undefined);
      })
      .catch((error: unknown) => {
        console.warn('The card form (Braintree Drop-in) could not load', error);
        if (live) setLoadFailed(true);
      });
    return () => {
      live = false;
      setDropin(null);
      const removed = created ? created.teardown().catch(() => undefined) : Promise.resolve();
      void removed.then(() => container.remove());
    };
  }, [clientToken]);

  const requestNonce = async () => {
    if (!dropin) return null;
    try {
      const { nonce, deviceData } = await dropin.requestPaymentMethod();
      return { nonce, deviceData };
    } catch {
      // Nothing usable entered yet: Drop-in marks the fields itself.
      return null;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // After a decline the card shown is cleared, so the next attempt is a new card and a new nonce.
    void attempt(requestNonce, () => dropin?.clearSelectedPaymentMethod());
  };

  return (
    <form className={styles.form} aria-label={label} onSubmit={submit} noValidate>
      {!dropin && !loadFailed ? <Spinner label="Loading the card form" /> : null}
      {/* Drop-in's own elements only: React puts nothing in here. */}
      <div ref={host} className={styles.dropIn} />
      {loadFailed ? (
        <p className={pageStyles.alert} role="alert">
          The card form could not load. Check your connection, then reload the page: nothing was charged.
        </p>
      ) : null}
      <PaymentFormFooter
        problem={problem}
        busy={busy}
        ready={dropin !== null}
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
      />
    </form>
  );
}
