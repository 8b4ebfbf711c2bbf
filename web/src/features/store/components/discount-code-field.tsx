import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import type { StoreInvoiceView } from '../api/store-keys';
import { formatMoney } from '../lib/format';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/**
 * The cart's discount code: typed and applied (the server prices the invoice with it and says
 * why when it will not), or, once applied, what it saves and a way to take it off.
 */
export function DiscountCodeField({
  invoice,
  applying,
  problem,
  onApply,
  onRemove,
}: {
  invoice: StoreInvoiceView;
  applying: boolean;
  /** Why the last code was refused, in the server's words. */
  problem: string | null;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const titleId = useId();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() && !applying) onApply(code.trim());
  };
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Discount code
      </h2>
      {invoice.discount ? (
        <div className={styles.discountApplied}>
          <p role="status">
            Code <strong>{invoice.discount.code}</strong> applied: you save {formatMoney(invoice.discount.saving)}
            {invoice.lines.some((line) => line.billing === 'subscription' && line.discount.amountMinor > 0)
              ? invoice.discount.appliesTo === 'every'
                ? ', and on every subscription charge after.'
                : ' (on the first subscription charge only).'
              : '.'}
          </p>
          <Button variant="ghost" onClick={onRemove}>
            Remove code
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Discount code" className={styles.discountForm}>
          <TextField
            label="Discount code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            maxLength={32}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            error={problem ?? undefined}
          />
          <Button type="submit" variant="secondary" disabled={applying || !code.trim()} aria-busy={applying}>
            {applying ? 'Applying…' : 'Apply'}
          </Button>
        </form>
      )}
    </section>
  );
}
