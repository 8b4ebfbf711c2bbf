import { useId, useRef, useState } from 'react';
import { IMAGE_TYPES } from '@shared/transfers/file-rules';
import { Button } from '../../../components/button';
import { ThumbIcon } from '../../../components/icons';
import { formatBytes } from '../../../lib/format-bytes';
import { getDownloadLink, useFilePreview } from '../api/download-file';
import { useRefreshAfterDownload } from '../api/get-transfer-package';
import type { PackageFile } from '../api/transfer-keys';
import { useVoteFile } from '../api/use-vote-file';
import { plural } from '../lib/format';
import { openDownload } from '../lib/open-download';
import { PreviewButton } from './preview-button';
import { useInView } from '../lib/use-in-view';
import styles from './package.module.css';

const THUMB_DOWN = { transform: 'rotate(180deg)' } as const;

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
export function PackageFileCard({
  transferId,
  file,
  canVote,
  closedBy,
}: {
  transferId: string;
  file: PackageFile;
  canVote: boolean;
  /** The id of what says why downloads are closed (the limit is spent); absent while they are open. */
  closedBy?: string | undefined;
}) {
  const nameId = useId();
  const vote = useVoteFile(transferId);
  const refresh = useRefreshAfterDownload(transferId);
  const [download, setDownload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const liked = file.myVote === 'like';
  const disliked = file.myVote === 'dislike';

  const startDownload = async () => {
    setDownload({ busy: true, error: null });
    try {
      const link = await getDownloadLink(file.id, 'attachment');
      openDownload(link.url);
      setDownload({ busy: false, error: null });
      refresh();
    } catch (error) {
      setDownload({ busy: false, error: error instanceof Error ? error.message : 'The download could not start.' });
      refresh(error);
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
                <ThumbIcon size={16} /> {file.likes}
              </Button>
              <Button
                variant="secondary"
                size="small"
                aria-pressed={disliked}
                aria-label={`Dislike: ${plural(file.dislikes, 'dislike')}`}
                onClick={() => vote.mutate({ fileId: file.id, vote: 'dislike', on: !disliked })}
              >
                <ThumbIcon size={16} style={THUMB_DOWN} /> {file.dislikes}
              </Button>
            </>
          ) : (
            <span className={styles.fileMeta}>
              {plural(file.likes, 'like')} · {plural(file.dislikes, 'dislike')}
            </span>
          )}
          <PreviewButton file={file} />
          <Button
            size="small"
            className={styles.download}
            onClick={() => void startDownload()}
            disabled={download.busy || closedBy !== undefined}
            aria-describedby={closedBy}
          >
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
