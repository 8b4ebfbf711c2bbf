import { useId, useState } from 'react';
import { MAX_DOWNLOAD_LIMIT } from '@shared/schemas/transfers';
import type { DownloadLimitChoice } from '../lib/transfer-draft';
import fieldStyles from '../../../components/field.module.css';
import styles from './send-options.module.css';
import transferStyles from './transfers.module.css';

/** The count offered when the limit is first switched on. */
const DEFAULT_LIMIT = 10;

/** A whole number of downloads the server takes, or 'invalid' for what it would refuse. */
function downloadsFrom(text: string): number | 'invalid' {
  const count = Number(text);
  return Number.isInteger(count) && count >= 1 && count <= MAX_DOWNLOAD_LIMIT ? count : 'invalid';
}

/**
 * An optional download limit: off, the transfer serves downloads until it expires; on, it stops
 * after that many (a zip of every file counts as one).
 */
export function DownloadLimitField({
  value,
  onChange,
  disabled,
}: {
  value: DownloadLimitChoice;
  onChange: (value: DownloadLimitChoice) => void;
  disabled: boolean;
}) {
  const countId = useId();
  const hintId = useId();
  const [text, setText] = useState(typeof value === 'number' ? String(value) : String(DEFAULT_LIMIT));
  const on = value !== null;
  const invalid = value === 'invalid';
  return (
    <div className={fieldStyles.field}>
      <div className={styles.limit}>
        <label className={styles.limitToggle}>
          <input
            type="checkbox"
            checked={on}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked ? downloadsFrom(text) : null)}
          />
          Limit downloads
        </label>
        {on ? (
          <>
            <label htmlFor={countId} className="visually-hidden">
              Downloads allowed
            </label>
            <input
              id={countId}
              className={`${transferStyles.input} ${styles.limitCount}`}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DOWNLOAD_LIMIT}
              value={text}
              disabled={disabled}
              aria-invalid={invalid || undefined}
              aria-describedby={hintId}
              onChange={(event) => {
                setText(event.target.value);
                onChange(downloadsFrom(event.target.value));
              }}
            />
          </>
        ) : null}
      </div>
      {on ? (
        <p id={hintId} className={fieldStyles.hint} data-tone={invalid ? 'negative' : undefined}>
          {invalid
            ? `Choose from 1 to ${MAX_DOWNLOAD_LIMIT} downloads.`
            : 'The files stop downloading after that many downloads; all files as one zip count as one.'}
        </p>
      ) : null}
    </div>
  );
}
