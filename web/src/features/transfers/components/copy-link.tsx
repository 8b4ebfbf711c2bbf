import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import fieldStyles from '../../../components/field.module.css';
import styles from './transfers.module.css';

/** A link shown in a read-only field with a Copy button beside it; says when it was copied. */
export function CopyLink({ label, url }: { label: string; url: string }) {
  const id = useId();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className={styles.copyLink}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <div className={styles.copyRow}>
        <input id={id} className={styles.input} readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy link
        </Button>
      </div>
      <p className={styles.hint} aria-live="polite">
        {copied === 'copied' ? 'Link copied.' : copied === 'failed' ? 'Copying failed: select the link and copy it.' : ''}
      </p>
    </div>
  );
}
