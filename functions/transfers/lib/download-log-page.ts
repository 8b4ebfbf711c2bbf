import type { DownloadLogEntry } from '../../../shared/schemas/transfers';
import { checkedCursor } from '../../lib/db/cursors';
import type { Db } from '../../lib/db/service';
import { getUsers } from '../../lib/db/users';

/** What the log calls the zip of every file. */
export const ALL_FILES = 'all';
/** The download log's page. */
export const DOWNLOAD_LOG_PAGE_SIZE = 50;

/*
 * Apart from download-log.ts, which writes the log and mails the sender: the log's reader sends
 * no mail, so its function carries no mailer.
 */

/** The transfer's downloads, newest first, a page at a time, each naming who took it (never an address). */
export async function readDownloadLog(
  db: Db,
  transferId: string,
  cursorText: string | undefined,
): Promise<{ downloads: DownloadLogEntry[]; cursor: string | null }> {
  const query = () => db.entities.transferDownload.query.byTransfer({ transferId });
  const cursor = checkedCursor(cursorText, query(), 'pk');
  const page = await query().go({ order: 'desc', limit: DOWNLOAD_LOG_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const userIds = [...new Set(page.data.flatMap((entry) => (entry.userId ? [entry.userId] : [])))];
  const users = new Map((await getUsers(db, { userIds })).map((user) => [user.userId, user]));
  return {
    downloads: page.data.map((entry) => {
      const user = entry.userId ? users.get(entry.userId) : undefined;
      return {
        at: entry.at,
        fileId: entry.fileId,
        fileName: entry.fileId === ALL_FILES ? 'All files' : entry.fileName,
        downloader: entry.downloader,
        name: user ? user.name || user.username || null : null,
        userId: entry.userId ?? null,
      };
    }),
    cursor: page.cursor ?? null,
  };
}
