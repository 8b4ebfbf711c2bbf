import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import { ReportFields, type ReportReason } from '../../../components/report-fields';
import { useReportObject } from '../api/report-object';
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
      <ReportFields
        reason={reason}
        details={details}
        onReasonChange={setReason}
        onDetailsChange={setDetails}
        controlClassName={styles.input}
      />
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
