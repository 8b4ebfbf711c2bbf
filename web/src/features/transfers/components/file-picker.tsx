import { type DragEvent, useId, useState } from 'react';
import { Button, buttonClassName } from '../../../components/button';
import { CloseIcon } from '../../../components/icons';
import { formatBytes } from '../../../lib/format-bytes';
import { plural } from '../lib/format';
import type { PickedFile } from '../lib/send-transfer';
import pageStyles from '../../../components/page.module.css';
import styles from './transfers.module.css';

/**
 * Where files are added: dropped anywhere on the zone or picked with the button (a real file
 * input, so the keyboard and screen readers work as everywhere), then listed with their sizes
 * and a remove button each.
 */
export function FilePicker({
  files,
  onAdd,
  onRemove,
  disabled = false,
}: {
  files: readonly PickedFile[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  disabled?: boolean;
}) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const total = files.reduce((sum, { file }) => sum + file.size, 0);

  const onDragOver = (event: DragEvent) => {
    if (disabled || !Array.from(event.dataTransfer?.types ?? []).includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = Array.from(event.dataTransfer?.files ?? []);
    if (dropped.length) onAdd(dropped);
  };

  return (
    <div className={pageStyles.section}>
      <div
        className={styles.dropZone}
        data-active={dragging}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        role="group"
        aria-label="Drop files here"
      >
        <p>Drop files here, or</p>
        <input
          id={inputId}
          type="file"
          multiple
          className={`visually-hidden ${styles.fileInput}`}
          disabled={disabled}
          onChange={(event) => {
            const picked = Array.from(event.currentTarget.files ?? []);
            // The same file may be picked again after it was removed.
            event.currentTarget.value = '';
            if (picked.length) onAdd(picked);
          }}
        />
        <label
          htmlFor={inputId}
          className={buttonClassName({ variant: 'secondary', className: styles.pickButton })}
          aria-disabled={disabled || undefined}
        >
          Add files
        </label>
      </div>
      {files.length ? (
        <>
          <ul className={styles.list} aria-label="Files to send">
            {files.map(({ key, file }) => (
              <li key={key} className={styles.item}>
                <span className={styles.itemMain}>
                  <span className={styles.itemName}>{file.name}</span>
                  <span className={styles.itemMeta}>{formatBytes(file.size)}</span>
                </span>
                <Button
                  variant="ghost"
                  iconOnly
                  size="small"
                  aria-label={`Remove ${file.name}`}
                  disabled={disabled}
                  onClick={() => onRemove(key)}
                >
                  <CloseIcon size={16} />
                </Button>
              </li>
            ))}
          </ul>
          <p className={styles.summary}>
            {plural(files.length, 'file')}, {formatBytes(total)}
          </p>
        </>
      ) : null}
    </div>
  );
}
