import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import { REPORT_REASONS, type ReportReason, useReportObject } from '../api/report-object';
import fieldStyles from '../../../components/field.module.css';
import styles from './account.module.css';
import { SaveError } from './section';

/** Report a user for review: a reason and optional details. */
export function ReportForm({ userId, username, onDone }: { userId: string; username: string; onDone: () => void }) {
  const [reason, setReason] = useState<ReportReason>('spam');
  const [details, setDetails] = useState('');
  const report = useReportObject();
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = details.trim();
    report.mutate(
      { objectType: 'user', objectId: userId, reason, ...(trimmed ? { details: trimmed } : {}) },
      {
        onSuccess: () => {
          toast.success('Thanks, your report was sent');
          onDone();
        },
      },
    );
  };

  return (
    <form className={`${styles.section} ${styles.form}`} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Report @{username}
      </h2>
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={`${id}-reason`}>
          Reason
        </label>
        <select
          id={`${id}-reason`}
          className={styles.input}
          value={reason}
          onChange={(event) => setReason(event.target.value as ReportReason)}
        >
          {REPORT_REASONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={`${id}-details`}>
          Details (optional)
        </label>
        <textarea
          id={`${id}-details`}
          className={styles.input}
          value={details}
          maxLength={1000}
          onChange={(event) => setDetails(event.target.value)}
        />
      </div>
      <SaveError error={report.error} />
      <div className={styles.actions}>
        <Button type="submit" disabled={report.isPending} aria-busy={report.isPending}>
          {report.isPending ? 'Sending…' : 'Send report'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
