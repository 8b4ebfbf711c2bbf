import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { VISIBILITIES } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { Visibility } from '../api/merchant-keys';
import { errorMessage } from '../lib/form-errors';
import { VISIBILITY_NAMES } from '../lib/format';
import { FormAlert } from './form-alert';
import styles from './merchant.module.css';

/**
 * Who sees a product or a grade: public, unlisted or private, each with a line saying what it
 * means, saved with its own button. Mount it with `key={visibility}` so a saved change starts afresh.
 */
export function VisibilitySection({
  visibility,
  hints,
  save,
}: {
  visibility: Visibility;
  hints: Readonly<Record<Visibility, string>>;
  save: UseMutationResult<boolean, Error, Visibility>;
}) {
  const titleId = useId();
  const name = useId();
  const [chosen, setChosen] = useState<Visibility>(visibility);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === visibility || save.isPending) return;
    save.mutate(chosen, { onSuccess: () => toast.success(`Now ${VISIBILITY_NAMES[chosen].toLowerCase()}`) });
  };

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Visibility
      </h2>
      <form className={styles.form} onSubmit={submit} aria-labelledby={titleId}>
        <fieldset className={styles.fieldset}>
          <legend className="visually-hidden">Who can see it</legend>
          <div className={styles.choices}>
            {VISIBILITIES.map((value) => (
              <label key={value} className={styles.choice}>
                <input
                  type="radio"
                  name={name}
                  value={value}
                  checked={chosen === value}
                  onChange={() => {
                    setChosen(value);
                    save.reset();
                  }}
                />
                <span className={styles.choiceText}>
                  <span className={styles.choiceName}>
                    {VISIBILITY_NAMES[value]}
                    {value === visibility ? ' (now)' : ''}
                  </span>
                  <span className={styles.choiceDetail}>{hints[value]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FormAlert message={save.isError ? errorMessage(save.error) : null} />
        <div className={styles.actions}>
          <Button type="submit" disabled={chosen === visibility || save.isPending} aria-busy={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save visibility'}
          </Button>
        </div>
      </form>
    </section>
  );
}
