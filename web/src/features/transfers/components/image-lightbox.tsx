import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/button';
import { DialogFrame } from '../../../components/dialog-frame';
import { Spinner } from '../../../components/spinner';
import { usePreviewLink } from '../api/preview-file';
import type { PackageFile } from '../api/transfer-keys';
import styles from './preview.module.css';

/**
 * A package's images, one at a time, large: a modal dialog (focus stays in it, Escape closes it
 * and focus goes back to what opened it) named by the file, with its position ("3 of 7"), and
 * Previous and Next (or the arrow keys), which go round from the last to the first.
 */
export function ImageLightbox({
  images,
  startAt,
  onClose,
}: {
  images: readonly PackageFile[];
  startAt: number;
  onClose: () => void;
}) {
  const [index, setIndex] = useState(startAt);
  const count = images.length;
  const file = images[index] ?? images[0];
  const go = useCallback((step: number) => setIndex((current) => (current + step + count) % count), [count]);

  useEffect(() => {
    if (count < 2) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowRight') go(1);
      else if (event.key === 'ArrowLeft') go(-1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count, go]);

  if (!file) return null;
  return (
    <DialogFrame
      title={file.name}
      // Announced when it changes: the title alone would not say that the image did.
      description={<span aria-live="polite">{`${index + 1} of ${count}`}</span>}
      onClose={onClose}
      wide
    >
      <LightboxImage file={file} />
      {count > 1 ? (
        <div className={styles.nav}>
          <Button variant="secondary" onClick={() => go(-1)}>
            ← Previous
          </Button>
          <Button variant="secondary" onClick={() => go(1)}>
            Next →
          </Button>
        </div>
      ) : null}
    </DialogFrame>
  );
}

function LightboxImage({ file }: { file: PackageFile }) {
  const link = usePreviewLink(file.id);
  return (
    <div className={styles.stage}>
      {link.data ? (
        <img key={file.id} src={link.data.url} alt={file.name} decoding="async" />
      ) : link.isError ? (
        <p className={styles.alert} role="alert">
          {link.error.message || 'The image could not be loaded.'}
        </p>
      ) : (
        <Spinner label={`Loading ${file.name}`} />
      )}
    </div>
  );
}
