import { type FormEvent, useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import type { EmailPreferences } from '../api/account-keys';
import { useUpdateEmailPreferences } from '../api/update-email-preferences';
import styles from './account.module.css';
import { SaveActions, SaveError, Section } from './section';

const OPTIONS: { key: keyof EmailPreferences; label: string; hint: string }[] = [
  { key: 'productUpdates', label: 'Product updates', hint: 'New features and changes to TopPubs.' },
  { key: 'weeklyDigest', label: 'Weekly digest', hint: 'Once a week: how the publications you follow did.' },
  { key: 'notificationEmails', label: 'Notification emails', hint: 'An email when something needs your attention.' },
];

/** Which emails the user wants, three switches and a Save. */
export function EmailPreferencesSection({ userId, preferences }: { userId: string; preferences: EmailPreferences }) {
  const [values, setValues] = useState<EmailPreferences>(preferences);
  const [baseline, setBaseline] = useState<EmailPreferences>(preferences);
  const [saved, setSaved] = useState(false);
  const update = useUpdateEmailPreferences(userId);
  const id = useId();
  const dirty = OPTIONS.some(({ key }) => values[key] !== baseline[key]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!dirty) return;
    update.mutate(values, {
      onSuccess: () => {
        setBaseline(values);
        setSaved(true);
        toast.success('Email preferences saved');
      },
    });
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
        <SaveActions label="Save email preferences" pending={update.isPending} dirty={dirty} saved={saved} />
      </form>
    </Section>
  );
}
