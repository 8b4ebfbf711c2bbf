import { type FormEvent, useId, useMemo, useState } from 'react';
import {
  decodeLocalClientToken,
  LOCAL_EXTRA_TEST_NONCES,
  LOCAL_TEST_CARDS,
  LOCAL_TEST_NONCES,
  type LocalCardField,
  type LocalTestCard,
} from '@shared/payments/local-gateway';
import { type LocalCardInput, LocalTokenizeFailed, tokenizeLocalCard } from '../../lib/payments/tokenize-local-card';
import type { PaymentFormProps } from './payment-method-form';
import { PaymentFormFooter, usePaymentAttempt } from './payment-form-parts';
import { TextField } from '../text-field';
import { formatCardNumber, formatExpiry, formatSecurityCode, isCompleteExpiry, securityCodeSize } from './card-input';
import fieldStyles from '../field.module.css';
import pageStyles from '../page.module.css';
import styles from './card-form.module.css';

type FieldErrors = Partial<Record<LocalCardField, string>>;

/** December, four years on: an expiry every test card accepts. */
function sampleExpiry(now = new Date()): string {
  return `12/${String((now.getFullYear() + 4) % 100).padStart(2, '0')}`;
}

/**
 * The local payment gateway's card form: what Braintree's Drop-in is in AWS, for `npm start`
 * and the tests, where nothing may reach Braintree. It offers the gateway's test cards and test
 * nonces, so a person can buy, be declined and try again offline; it says plainly that it is a
 * test form.
 */
export function LocalCardForm({
  clientToken,
  label,
  submitLabel,
  pendingLabel,
  onPaymentMethod,
  problem,
}: PaymentFormProps & { clientToken: string }) {
  const token = useMemo(() => decodeLocalClientToken(clientToken), [clientToken]);
  const { busy, attempt } = usePaymentAttempt(onPaymentMethod);
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const [testNonce, setTestNonce] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  /** What the gateway said when it would not tokenize: shown instead of the caller's problem. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const nonceSelectId = useId();

  const fillTestCard = (card: LocalTestCard) => {
    setTestNonce('');
    setNumber(formatCardNumber(card.number));
    if (!isCompleteExpiry(expiry)) setExpiry(sampleExpiry());
    const cvvLength = securityCodeSize(card.number);
    if (cvv.length !== cvvLength) setCvv(cvvLength === 4 ? '1234' : '123');
    setFieldErrors({});
  };

  const tokenize = async () => {
    if (!token) return null;
    setRefusal(null);
    setFieldErrors({});
    const input: LocalCardInput = testNonce
      ? { testNonce }
      : {
          creditCard: {
            number: number.replace(/\s/g, ''),
            expirationDate: expiry.trim(),
            cvv: cvv.trim(),
            ...(postalCode.trim() ? { postalCode: postalCode.trim() } : {}),
          },
        };
    try {
      const { nonce } = await tokenizeLocalCard(token, input);
      return { nonce };
    } catch (error) {
      if (error instanceof LocalTokenizeFailed) {
        setFieldErrors(Object.fromEntries(error.fieldErrors.map(({ field, message }) => [field, message])));
        setRefusal(
          error.status === 401
            ? 'This card form has expired. Reload the page to get a new one: nothing was charged.'
            : error.message,
        );
      } else {
        setRefusal('The local payment gateway is not answering. Is `npm start` still running? Nothing was charged.');
      }
      return null;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt(tokenize);
  };

  if (!token) {
    return (
      <p className={pageStyles.alert} role="alert">
        The card form could not start: the payment gateway sent a client token it does not recognise. Reload the page to try
        again.
      </p>
    );
  }

  const usingNonce = testNonce !== '';
  return (
    <form className={styles.form} aria-label={label} onSubmit={submit} noValidate>
      <div className={styles.testGateway}>
        <p>
          <strong>Local test gateway.</strong> No real card is charged: this form only takes the test cards below.
        </p>
      </div>
      <fieldset className={styles.fields} disabled={busy || usingNonce}>
        <legend className={styles.fieldsLegend}>Card</legend>
        <TextField
          className={styles.fieldWide}
          label="Card number"
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          value={number}
          onChange={(event) => setNumber(formatCardNumber(event.target.value))}
          error={fieldErrors.number}
        />
        <TextField
          label="Expiry date (MM/YY)"
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          value={expiry}
          onChange={(event) => setExpiry(formatExpiry(event.target.value))}
          error={fieldErrors.expirationDate}
        />
        <TextField
          label="Security code"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          value={cvv}
          onChange={(event) => setCvv(formatSecurityCode(event.target.value, number))}
          error={fieldErrors.cvv}
        />
        <TextField
          label="Postal code (optional)"
          name="postal"
          autoComplete="postal-code"
          value={postalCode}
          onChange={(event) => setPostalCode(event.target.value)}
          error={fieldErrors.postalCode}
        />
      </fieldset>

      <details className={styles.testCards} open>
        <summary>Test cards</summary>
        <p className={styles.muted}>
          Pick one to fill in its number. Any future expiry date works, with a 3-digit security code (4 for American Express).
        </p>
        <ul className={styles.testCardList} aria-label="Test cards">
          {LOCAL_TEST_CARDS.map((card) => (
            <li key={card.number}>
              <button type="button" className={styles.testCard} onClick={() => fillTestCard(card)} disabled={busy}>
                <span className={styles.testCardNumber}>{formatCardNumber(card.number)}</span>
                <span className={styles.testCardLabel}>{card.label}</span>
              </button>
            </li>
          ))}
        </ul>
      </details>

      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={nonceSelectId}>
          Or pay with a test nonce
        </label>
        <select
          id={nonceSelectId}
          className={fieldStyles.control}
          value={testNonce}
          disabled={busy}
          onChange={(event) => {
            setTestNonce(event.target.value);
            setFieldErrors({});
          }}
        >
          <option value="">No: use the card above</option>
          <optgroup label="Test nonces">
            {LOCAL_TEST_NONCES.map((nonce) => (
              <option key={nonce.nonce} value={nonce.nonce}>
                {nonce.label} ({nonce.nonce})
              </option>
            ))}
          </optgroup>
          <optgroup label="Also accepted">
            {LOCAL_EXTRA_TEST_NONCES.map((nonce) => (
              <option key={nonce.nonce} value={nonce.nonce}>
                {nonce.label} ({nonce.nonce})
              </option>
            ))}
          </optgroup>
        </select>
      </div>

      <PaymentFormFooter
        problem={refusal ? <p>{refusal}</p> : problem}
        busy={busy}
        ready
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
      />
    </form>
  );
}
