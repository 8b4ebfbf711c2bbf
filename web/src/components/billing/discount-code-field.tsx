import { type FormEvent, useId, useState } from 'react';
import { Button } from '../button';
import pageStyles from '../page.module.css';
import { TextField } from '../text-field';
import styles from './discount-code-field.module.css';

/** A code the server applied to the invoice: its name, the saving as shown, and when it applies ("on your first charge."). */
export interface AppliedDiscount {
  code: string;
  saving: string;
  when: string;
}

/**
 * A checkout's discount code (the shop's cart and the Pro checkout): typed and applied (the
 * server prices the invoice with it and says why when it will not), or, once applied, what it
 * saves and a way to take it off.
 */
export function DiscountCodeField({
  applied,
  applying,
  problem,
  onApply,
  onRemove,
}: {
  applied: AppliedDiscount | null;
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
      {applied ? (
        <div className={styles.applied}>
          <p role="status">
            Code <strong>{applied.code}</strong> applied: you save {applied.saving}
            {applied.when}
          </p>
          <Button variant="ghost" onClick={onRemove} disabled={applying}>
            Remove code
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Discount code" className={styles.form}>
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
