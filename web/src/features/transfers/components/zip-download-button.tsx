import { useState } from 'react';
import { Button } from '../../../components/button';
import { formatBytes } from '../../../lib/format-bytes';
import { getZipManifest } from '../api/download-all-files';
import { useRefreshAfterDownload } from '../api/get-transfer-package';
import { ProgressBar } from './progress-bar';
import styles from './package.module.css';

type ZipState =
  | { step: 'idle' }
  | { step: 'running'; bytes: number; totalBytes: number }
  | { step: 'done' }
  | { step: 'failed'; message: string };

/**
 * "Download all as .zip": asks for the files' download links, then streams them into one zip
 * saved as it arrives (the zip code loads only now, on the first click).
 */
export function ZipDownloadButton({
  transferId,
  totalBytes,
  closedBy,
}: {
  transferId: string;
  totalBytes: number;
  /** The id of what says why downloads are closed (the limit is spent); absent while they are open. */
  closedBy?: string | undefined;
}) {
  const [state, setState] = useState<ZipState>({ step: 'idle' });
  const refresh = useRefreshAfterDownload(transferId);
  const start = async () => {
    setState({ step: 'running', bytes: 0, totalBytes });
    try {
      // The zip is one download, counted when its links are given: the count moves then.
      const manifestAsked = getZipManifest(transferId).then(
        (manifest) => {
          refresh();
          return manifest;
        },
        (error: unknown) => {
          refresh(error);
          throw error;
        },
      );
      const [manifest, { downloadAllAsZip }] = await Promise.all([manifestAsked, import('../lib/zip-download')]);
      await downloadAllAsZip({
        name: manifest.name,
        files: manifest.files,
        onProgress: ({ bytes, totalBytes: total }) => setState({ step: 'running', bytes, totalBytes: total }),
      });
      setState({ step: 'done' });
    } catch (error) {
      setState({
        step: 'failed',
        message: error instanceof Error && error.message ? error.message : 'The zip could not be made.',
      });
    }
  };
  const running = state.step === 'running';
  return (
    <div className={styles.zip}>
      <Button
        onClick={() => void start()}
        disabled={running || closedBy !== undefined}
        aria-busy={running || undefined}
        aria-describedby={closedBy}
      >
        {running ? 'Zipping…' : 'Download all as .zip'}
      </Button>
      {state.step === 'running' ? (
        <ProgressBar
          label="Zip download"
          fraction={state.totalBytes > 0 ? state.bytes / state.totalBytes : 0}
          valueText={`${formatBytes(state.bytes)} of ${formatBytes(state.totalBytes)}`}
        />
      ) : null}
      <p className={styles.zipNote} aria-live="polite">
        {state.step === 'done' ? 'The zip is saved in your downloads.' : ''}
      </p>
      {state.step === 'failed' ? (
        <p className={styles.alert} role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
