import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import type { InvoiceView } from '../api/subscription-keys';
import { formatMoney } from '../lib/format';
import pageStyles from '../../../components/page.module.css';
import styles from './subscriptions.module.css';

/**
 * The checkout's discount code: typed and applied (the server prices the invoice with it and says
 * why when it will not), or, once applied, what it saves and a way to take it off.
 */
export function ProDiscountCodeField({
  invoice,
  applying,
  problem,
  onApply,
  onRemove,
}: {
  invoice: InvoiceView;
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
            {invoice.discount.appliesTo === 'every' ? ' on every charge.' : ' on your first charge.'}
          </p>
          <Button variant="ghost" onClick={onRemove} disabled={applying}>
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
