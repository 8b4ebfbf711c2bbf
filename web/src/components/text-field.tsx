import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import styles from './field.module.css';

/** A line under a field that a check updates as the person types (a username is free): read as it changes. */
export interface FieldNote {
  text: string;
  tone?: 'positive' | 'negative' | undefined;
}

/** What a field says under it: a hint, what a check found, what is wrong with its value. */
export interface FieldLines {
  hint?: ReactNode;
  note?: FieldNote | null | undefined;
  error?: string | undefined;
}

/** The field's id, and what it tells assistive technology: the lines under it, and whether its value is wrong. */
export function useFieldLines({ hint, note, error }: FieldLines) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, note ? `${id}-note` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return { id, 'aria-describedby': describedBy || undefined, 'aria-invalid': error ? true : undefined };
}

/** The lines under the field whose id is `id` (useFieldLines), each with the id that field reads. */
export function FieldLinesBelow({ id, hint, note, error }: FieldLines & { id: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {note ? (
        <p id={`${id}-note`} className={styles.hint} data-tone={note.tone} aria-live="polite">
          {note.text}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </>
  );
}

type Labelled = FieldLines & {
  label: string;
  /** The field's box (a grid column it spans). */
  className?: string | undefined;
};
type Owned = 'id' | 'aria-invalid' | 'aria-describedby' | 'className';

/** The label, the control `children` draws with the id and aria props it is given, then the lines under it. */
function LabelledField({
  label,
  className,
  children,
  ...lines
}: Labelled & { children: (field: ReturnType<typeof useFieldLines>) => ReactNode }) {
  const field = useFieldLines(lines);
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={field.id}>
        {label}
      </label>
      {children(field)}
      <FieldLinesBelow id={field.id} {...lines} />
    </div>
  );
}

/** A labelled input with its hint, a check's note and its error under it, all read with the input. */
export function TextField({
  label,
  hint,
  note,
  error,
  className,
  ...input
}: Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, Owned>) {
  return (
    <LabelledField label={label} hint={hint} note={note} error={error} className={className}>
      {(field) => <input className={styles.control} {...field} {...input} />}
    </LabelledField>
  );
}

/** A labelled textarea, as TextField. */
export function TextArea({
  label,
  hint,
  note,
  error,
  className,
  ...textarea
}: Labelled & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Owned>) {
  return (
    <LabelledField label={label} hint={hint} note={note} error={error} className={className}>
      {(field) => <textarea className={styles.textarea} {...field} {...textarea} />}
    </LabelledField>
  );
}
