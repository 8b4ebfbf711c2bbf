import { type ReactNode, useId } from 'react';
import { Button } from '../../../components/button';
import styles from './account.module.css';

/** One dashboard section: a region named by its heading. */
export function Section({
  title,
  lede,
  tone,
  children,
}: {
  title: string;
  lede?: ReactNode;
  tone?: 'danger';
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={id} data-tone={tone}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      {lede ? <p className={styles.sectionLede}>{lede}</p> : null}
      {children}
    </section>
  );
}

/** A failed save, said next to the Save button. */
export function SaveError({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error && error.message ? error.message : 'The server did not answer. Try again.';
  return (
    <p className={styles.error} role="alert">
      Saving failed: {message}
    </p>
  );
}

/**
 * A section's one Save: usable only when something changed (and nothing blocks it, like a
 * username still being checked), busy while saving, then "Saved" beside it until the next edit.
 * The status is always in the page, so screen readers hear "Saved" when it appears.
 */
export function SaveActions({
  label,
  pending,
  dirty,
  saved,
  blocked = false,
}: {
  label: string;
  pending: boolean;
  dirty: boolean;
  saved: boolean;
  blocked?: boolean;
}) {
  return (
    <div className={styles.actions}>
      <Button type="submit" disabled={!dirty || blocked || pending} aria-busy={pending}>
        {pending ? 'Saving…' : label}
      </Button>
      <span role="status" className={styles.saved}>
        {saved && !dirty && !pending ? 'Saved' : ''}
      </span>
    </div>
  );
}
