import { DialogFrame } from '../../../components/dialog-frame';
import { ExternalIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { buttonClassName } from '../../../components/button';
import { usePreviewLink } from '../api/preview-file';
import type { PackageFile } from '../api/transfer-keys';
import styles from './preview.module.css';

/**
 * Audio and video play in the page (the link honours Range, so the player seeks); a PDF opens in
 * the browser's own viewer, in a new tab, from a link the person follows themselves (a tab opened
 * by the page after the link arrives would be blocked as a pop-up).
 */
export function MediaPreviewDialog({
  file,
  kind,
  onClose,
}: {
  file: PackageFile;
  kind: 'audio' | 'video' | 'pdf';
  onClose: () => void;
}) {
  const link = usePreviewLink(file.id);
  const description = kind === 'pdf' ? 'PDF' : kind === 'audio' ? 'Audio' : 'Video';
  let body;
  if (link.data) {
    const url = link.data.url;
    body =
      kind === 'pdf' ? (
        <p className={styles.note}>
          <a className={buttonClassName({})} href={url} target="_blank" rel="noopener noreferrer">
            Open {file.name} in a new tab <ExternalIcon size={16} />
          </a>
        </p>
      ) : (
        <div className={styles.stage}>
          {kind === 'audio' ? (
            <audio controls preload="metadata" src={url} aria-label={file.name} />
          ) : (
            <video controls preload="metadata" src={url} aria-label={file.name} />
          )}
        </div>
      );
  } else if (link.isError) {
    body = (
      <p className={styles.alert} role="alert">
        {link.error.message || 'The preview could not be loaded.'}
      </p>
    );
  } else {
    body = (
      <div className={styles.stage}>
        <Spinner label={`Loading ${file.name}`} />
      </div>
    );
  }
  return (
    <DialogFrame title={file.name} description={description} onClose={onClose} wide>
      {body}
    </DialogFrame>
  );
}
