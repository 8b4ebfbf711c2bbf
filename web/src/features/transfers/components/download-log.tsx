import { Button } from '../../../components/button';
import { ErrorState } from '../../../components/state-message';
import { useTransferDownloads } from '../api/list-transfer-downloads';
import type { TransferSummary } from '../api/transfer-keys';
import { formatDateTime, plural } from '../lib/format';
import pageStyles from '../../../components/page.module.css';
import styles from './send-options.module.css';
import transferStyles from './transfers.module.css';

/**
 * The sender's download log: each download of the package, newest first, with which file (or
 * all of them, as a zip) and who took it: a signed-in person by name, anyone else who had the
 * link as anonymous. A limited transfer also says how many downloads are left.
 */
export function DownloadLog({ transfer }: { transfer: TransferSummary }) {
  const log = useTransferDownloads(transfer.id);
  const downloads = log.data?.pages.flatMap((page) => page.downloads) ?? [];
  return (
    <section className={pageStyles.section} aria-labelledby="transfer-downloads">
      <h2 id="transfer-downloads" className={transferStyles.sectionTitle}>
        Downloads
      </h2>
      {transfer.downloadLimit !== null ? (
        <p className={transferStyles.hint}>
          {transfer.downloadCount} of {plural(transfer.downloadLimit, 'download')} taken
          {transfer.downloadCount >= transfer.downloadLimit
            ? ': the limit is reached and the files are not served any more.'
            : '.'}
        </p>
      ) : null}
      {transfer.previewCount > 0 ? (
        <p className={transferStyles.hint}>
          Previewed {plural(transfer.previewCount, 'time')} (previews are not downloads).
        </p>
      ) : null}
      {log.isError ? (
        <ErrorState title="The downloads could not be loaded" error={log.error} onRetry={() => void log.refetch()} compact />
      ) : log.isPending ? (
        <p className={transferStyles.hint}>Loading the downloads…</p>
      ) : downloads.length === 0 ? (
        <p className={transferStyles.hint}>Nobody has downloaded anything yet.</p>
      ) : (
        <div className={styles.log}>
          <ul className={styles.logList} aria-label="Download log">
            {downloads.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <span>
                  <strong>{entry.downloader === 'anonymous' ? 'Anonymous' : (entry.name ?? 'A former user')}</strong> downloaded{' '}
                  {entry.fileId === 'all' ? 'all files' : entry.fileName}
                </span>
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </li>
            ))}
          </ul>
          {log.hasNextPage ? (
            <Button variant="secondary" size="small" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? 'Loading…' : 'Show older downloads'}
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}
