import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { EmailPreferences } from '../api/account-keys';
import { useUpdateEmailPreferences } from '../api/update-email-preferences';
import styles from './account.module.css';
import { SaveError, Section } from './section';

const OPTIONS: { key: keyof EmailPreferences; label: string; hint: string }[] = [
  { key: 'productUpdates', label: 'Product updates', hint: 'New features and changes to TopPubs.' },
  { key: 'weeklyDigest', label: 'Weekly digest', hint: 'The week’s biggest movers, every Monday.' },
  { key: 'notificationEmails', label: 'Notification emails', hint: 'An email when something needs your attention.' },
];

/** Which emails the user wants, three switches and a Save. */
export function EmailPreferencesSection({ userId, preferences }: { userId: string; preferences: EmailPreferences }) {
  const [values, setValues] = useState<EmailPreferences>(preferences);
  const update = useUpdateEmailPreferences(userId);
  const id = useId();

  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(values, { onSuccess: () => toast.success('Email preferences saved') });
  };

  return (
    <Section title="Email preferences" lede="Login links are always sent, whatever you choose here.">
      <form className={styles.form} onSubmit={save}>
        {OPTIONS.map((option) => (
          <div key={option.key} className={styles.checkbox}>
            <input
              id={`${id}-${option.key}`}
              type="checkbox"
              aria-describedby={`${id}-${option.key}-hint`}
              checked={values[option.key]}
              onChange={(event) => setValues((current) => ({ ...current, [option.key]: event.target.checked }))}
            />
            <span className={styles.checkboxText}>
              <label htmlFor={`${id}-${option.key}`}>{option.label}</label>
              <span id={`${id}-${option.key}-hint`} className={styles.muted}>
                {option.hint}
              </span>
            </span>
          </div>
        ))}
        <SaveError error={update.error} />
        <div className={styles.actions}>
          <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save email preferences'}
          </Button>
        </div>
      </form>
    </Section>
  );
}
