import type { ReactNode } from 'react';
import styles from './state-message.module.css';

/**
 * Every empty, not-found and error state of the site is one of these three, so they look and
 * read alike wherever they appear: an icon, a heading, plain words, and what to do next.
 */

/** A failed call: what the server said and a way to try again. Never a blank page. */
export function ErrorState({
  title = 'Something went wrong',
  error,
  onRetry,
  retrying = false,
  compact = false,
}: {
  title?: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  /** On one line, under content that is still shown (a further page of a list that failed). */
  compact?: boolean;
}) {
  const message =
    error instanceof Error && error.message ? error.message : 'The server did not answer. Check your connection and try again.';
  return (
    <div className={styles.state} role="alert" data-tone="error" data-size={compact ? 'compact' : undefined}>
      <span className={styles.icon} aria-hidden="true">
        !
      </span>
      {compact ? (
        <p className={styles.text}>
          <strong className={styles.inlineTitle}>{title}:</strong> {message}
        </p>
      ) : (
        <>
          <h2 className={styles.title}>{title}</h2>
          <p className={styles.text}>{message}</p>
        </>
      )}
      <button type="button" className={styles.button} onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}

/** Nothing to show, said plainly, with where to go instead. */
export function EmptyState({
  title,
  children,
  icon = '∅',
  level = 2,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  /** 1 when the state is the whole page (an unknown topic), 2 inside a page. */
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className={styles.state} role="status">
      <span className={styles.icon} aria-hidden="true">
        {icon}
      </span>
      <Heading className={styles.title}>{title}</Heading>
      {children ? <div className={styles.text}>{children}</div> : null}
    </div>
  );
}

/**
 * An address that leads nowhere (an unknown page, topic or page number): the whole page, with
 * its own heading, the same everywhere.
 */
export function NotFoundState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <EmptyState title={title} icon="?" level={1}>
      {children}
    </EmptyState>
  );
}

/** The ways out under an empty or not-found state, side by side. */
export function StateLinks({ children }: { children: ReactNode }) {
  return <p className={styles.links}>{children}</p>;
}
