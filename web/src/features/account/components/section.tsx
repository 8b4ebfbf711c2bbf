import { type ReactNode, useId } from 'react';
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
