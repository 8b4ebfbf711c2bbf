import { useQuery } from '@tanstack/react-query';
import { DialogFrame } from '../../../components/dialog-frame';
import { Spinner } from '../../../components/spinner';
import { getPreviewLink } from '../api/preview-file';
import { transferKeys, type PackageFile } from '../api/transfer-keys';
import { readTextPreview } from '../lib/text-preview';
import styles from './preview.module.css';

/** A text or code file's first 64 KB, as text (HTML and SVG too: shown, never run). */
export function TextPreviewDialog({ file, onClose }: { file: PackageFile; onClose: () => void }) {
  const preview = useQuery({
    queryKey: [...transferKeys.preview(file.id), 'text'] as const,
    queryFn: async ({ signal }) => {
      const link = await getPreviewLink(file.id, signal);
      return readTextPreview(link.url, file.size, signal);
    },
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });
  return (
    <DialogFrame title={file.name} description="Text preview" onClose={onClose} wide>
      {preview.data ? (
        <>
          {preview.data.truncated ? (
            <p className={styles.note}>Showing the first 64 KB. Download the file to see all of it.</p>
          ) : null}
          {/* Focusable, so the keyboard scrolls a long text. */}
          <pre className={styles.text} tabIndex={0} aria-label={`Contents of ${file.name}`}>
            {preview.data.text}
          </pre>
        </>
      ) : preview.isError ? (
        <p className={styles.alert} role="alert">
          {preview.error.message || 'The preview could not be loaded.'}
        </p>
      ) : (
        <div className={styles.stage}>
          <Spinner label={`Loading ${file.name}`} />
        </div>
      )}
    </DialogFrame>
  );
}
