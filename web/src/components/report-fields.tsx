import { useId } from 'react';
import styles from './field.module.css';

/** Why people report something, as the report routes take it. */
export const REPORT_REASONS = [
  { value: 'spam', label: 'Spam' },
  { value: 'abuse', label: 'Abuse or harassment' },
  { value: 'impersonation', label: 'Impersonation' },
  { value: 'copyright', label: 'Copyright' },
  { value: 'other', label: 'Something else' },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];

/** The fields of every report (a person, a comment): a reason and optional details. */
export function ReportFields({
  reason,
  details,
  onReasonChange,
  onDetailsChange,
  controlClassName = styles.control,
}: {
  reason: ReportReason;
  details: string;
  onReasonChange: (reason: ReportReason) => void;
  onDetailsChange: (details: string) => void;
  /** The select's and textarea's look, as the form around them has its fields. */
  controlClassName?: string | undefined;
}) {
  const id = useId();
  return (
    <>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${id}-reason`}>
          Reason
        </label>
        <select
          id={`${id}-reason`}
          className={controlClassName}
          value={reason}
          onChange={(event) => onReasonChange(event.target.value as ReportReason)}
        >
          {REPORT_REASONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${id}-details`}>
          Details (optional)
        </label>
        <textarea
          id={`${id}-details`}
          className={controlClassName}
          value={details}
          maxLength={1000}
          onChange={(event) => onDetailsChange(event.target.value)}
        />
      </div>
    </>
  );
}
