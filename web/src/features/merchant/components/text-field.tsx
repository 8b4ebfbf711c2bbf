import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import styles from './merchant.module.css';

type Described = { label: string; hint?: string | undefined; error?: string | undefined; className?: string | undefined };

/** The ids a field's hint and error take, and the aria-describedby that reads them with it. */
function useDescribed(hint: string | undefined, error: string | undefined) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

function Notes({
  hint,
  error,
  hintId,
  errorId,
}: {
  hint?: string | undefined;
  error?: string | undefined;
  hintId: string;
  errorId: string;
}) {
  return (
    <>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled input with a hint and an error under it, both read with the input. */
export function TextField({
  label,
  hint,
  error,
  className,
  ...input
}: Described & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>) {
  const { id, hintId, errorId, describedBy } = useDescribed(hint, error);
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input id={id} className={styles.input} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <Notes hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** A labelled textarea, as TextField. */
export function TextArea({
  label,
  hint,
  error,
  className,
  ...textarea
}: Described & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>) {
  const { id, hintId, errorId, describedBy } = useDescribed(hint, error);
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={styles.textarea}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...textarea}
      />
      <Notes hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** What failed, beside the form, announced as it appears. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className={styles.alert} role="alert">
      <p>{message}</p>
    </div>
  );
}
