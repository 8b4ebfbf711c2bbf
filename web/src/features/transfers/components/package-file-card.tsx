import { useId, useRef, useState } from 'react';
import { IMAGE_TYPES } from '../../../../../shared/transfers/file-rules';
import { Button } from '../../../components/button';
import { getDownloadLink, useFilePreview } from '../api/download-file';
import type { PackageFile } from '../api/transfer-keys';
import { useVoteFile } from '../api/use-vote-file';
import { formatBytes, plural } from '../lib/format';
import { openDownload } from '../lib/open-download';
import { useInView } from '../lib/use-in-view';
import styles from './package.module.css';

/** A thumb up (or down), drawn like the app's other icons (24x24, currentColor). */
function ThumbIcon({ down = false }: { down?: boolean }) {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      style={down ? { transform: 'rotate(180deg)' } : undefined}
    >
      <path d="M7 10v12M15 5.9 14 10h5.8a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.4 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.8a2 2 0 0 0 1.8-1.1L12 2a3.1 3.1 0 0 1 3 3.9Z" />
    </svg>
  );
}

const PREVIEWABLE: ReadonlySet<string> = new Set(IMAGE_TYPES);

/** An image's preview: its short-lived inline url is asked for only once the card nears the screen. */
function ImagePreview({ file }: { file: PackageFile }) {
  const frame = useRef<HTMLDivElement>(null);
  const inView = useInView(frame);
  const preview = useFilePreview(file.id, inView);
  return (
    <div ref={frame} className={styles.preview}>
      {preview.data ? <img src={preview.data.url} alt={`Preview of ${file.name}`} loading="lazy" decoding="async" /> : null}
    </div>
  );
}

/**
 * One file of a package: name, size and type, a preview for images, like and dislike toggles
 * with their counts (for recipients; the sender sees the counts), and Download.
 */
export function PackageFileCard({ transferId, file, canVote }: { transferId: string; file: PackageFile; canVote: boolean }) {
  const nameId = useId();
  const vote = useVoteFile(transferId);
  const [download, setDownload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const liked = file.myVote === 'like';
  const disliked = file.myVote === 'dislike';

  const startDownload = async () => {
    setDownload({ busy: true, error: null });
    try {
      const link = await getDownloadLink(file.id, 'attachment');
      openDownload(link.url);
      setDownload({ busy: false, error: null });
    } catch (error) {
      setDownload({ busy: false, error: error instanceof Error ? error.message : 'The download could not start.' });
    }
  };

  const error = vote.isError ? vote.error.message || 'Your vote was not saved. Try again.' : download.error;

  return (
    <article className={styles.file} aria-labelledby={nameId}>
      {PREVIEWABLE.has(file.type) ? <ImagePreview file={file} /> : null}
      <div className={styles.fileBody}>
        <h3 id={nameId} className={styles.fileName}>
          {file.name}
        </h3>
        <p className={styles.fileMeta}>
          {formatBytes(file.size)} · {file.type || 'unknown type'}
        </p>
        <div className={styles.fileActions}>
          {canVote ? (
            <>
              <Button
                variant="secondary"
                size="small"
                aria-pressed={liked}
                aria-label={`Like: ${plural(file.likes, 'like')}`}
                onClick={() => vote.mutate({ fileId: file.id, vote: 'like', on: !liked })}
              >
                <ThumbIcon /> {file.likes}
              </Button>
              <Button
                variant="secondary"
                size="small"
                aria-pressed={disliked}
                aria-label={`Dislike: ${plural(file.dislikes, 'dislike')}`}
                onClick={() => vote.mutate({ fileId: file.id, vote: 'dislike', on: !disliked })}
              >
                <ThumbIcon down /> {file.dislikes}
              </Button>
            </>
          ) : (
            <span className={styles.fileMeta}>
              {plural(file.likes, 'like')} · {plural(file.dislikes, 'dislike')}
            </span>
          )}
          <Button size="small" className={styles.download} onClick={() => void startDownload()} disabled={download.busy}>
            {download.busy ? 'Starting…' : 'Download'}
          </Button>
        </div>
        {error ? (
          <p className={styles.alert} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </article>
  );
}
