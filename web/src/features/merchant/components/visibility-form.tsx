import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { VISIBILITIES } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { Visibility } from '../api/merchant-keys';
import { errorMessage } from '../lib/form-errors';
import { VISIBILITY_NAMES } from '../lib/format';
import { ChoiceFieldset } from './choice-fieldset';
import { FormAlert } from './form-alert';
import pageStyles from '../../../components/page.module.css';
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
  const [chosen, setChosen] = useState<Visibility>(visibility);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === visibility || save.isPending) return;
    save.mutate(chosen, { onSuccess: () => toast.success(`Now ${VISIBILITY_NAMES[chosen].toLowerCase()}`) });
  };

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Visibility
      </h2>
      <form className={styles.form} onSubmit={submit} aria-labelledby={titleId}>
        <ChoiceFieldset
          legend="Who can see it"
          hideLegend
          choices={VISIBILITIES.map((value) => ({
            value,
            name: `${VISIBILITY_NAMES[value]}${value === visibility ? ' (now)' : ''}`,
            detail: hints[value],
          }))}
          value={chosen}
          onChange={(value) => {
            setChosen(value);
            save.reset();
          }}
        />
        <FormAlert message={save.isError ? errorMessage(save.error) : null} />
        <div className={pageStyles.actions}>
          <Button type="submit" disabled={chosen === visibility || save.isPending} aria-busy={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save visibility'}
          </Button>
        </div>
      </form>
    </section>
  );
}
