import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useTransfer } from '../api/get-transfer';
import { useTransferHome } from '../api/get-transfer-home';
import { useOwnTransfers } from '../api/list-own-transfers';
import { TransferForm } from '../components/transfer-form';
import type { ResumableDraft } from '../lib/transfer-draft';
import { formatBytes } from '../../../lib/format-bytes';
import type { UploadFn } from '../lib/send-transfer';
import type { UploadTransport } from '../../../lib/uploads/upload-transport';
import styles from '../components/transfers.module.css';

/**
 * The sender's plan and unfinished draft: the transfer home tells the limits of their plan now
 * (Pro the moment they subscribe), and the newest draft with pending files, read in full, can be
 * resumed.
 */
function useSenderState(userId: string | null) {
  const home = useTransferHome(userId);
  const own = useOwnTransfers(userId);
  const transfers = own.data?.pages[0]?.transfers ?? [];
  const draft = transfers.find((transfer) => transfer.status === 'draft' && !transfer.expired && !transfer.receivedThrough);
  const view = useTransfer(draft?.id ?? '', Boolean(draft));
  const data = view.data && view.data.transfer.id === draft?.id ? view.data : undefined;
  const limits = home.data?.limits ?? data?.limits ?? PLAN_LIMITS.free;
  const resumable: ResumableDraft | null =
    data && draft && data.transfer.status === 'draft' && data.files.some((file) => file.status === 'pending')
      ? { transfer: data.transfer, files: data.files, recipients: data.members.map((member) => member.email) }
      : null;
  return { limits, resumable };
}

/** /transfer: send files. Signed out, a word on what it does and the way to log in. */
export function TransferHomePage({ upload, transport }: { upload?: UploadFn; transport?: UploadTransport } = {}) {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const { limits, resumable } = useSenderState(user?.userId ?? null);

  let content;
  if (isPending) {
    content = <PageSpinner label="Loading" />;
  } else if (!user) {
    content = (
      <EmptyState title="Send big files, simply" icon="↗">
        <p>
          Drop in your files, add the people they are for, and they get a link by email. Up to{' '}
          {formatBytes(PLAN_LIMITS.free.maxTransferBytes)} a transfer for free, kept for up to {PLAN_LIMITS.free.maxExpiryDays}{' '}
          days; Pro sends up to {formatBytes(PLAN_LIMITS.pro.maxTransferBytes)}.
        </p>
        <p>
          <Button onClick={loginModal.open}>Log in</Button>
        </p>
      </EmptyState>
    );
  } else {
    content = (
      <TransferForm
        userId={user.userId}
        limits={limits}
        resumable={resumable}
        {...(upload ? { upload } : {})}
        {...(transport ? { transport } : {})}
      />
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Send files · ${APP_NAME}` }} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>Send files</h1>
          {user ? (
            <span className={styles.headerLinks}>
              <Link to="/transfers/requests" className={buttonClassName({ variant: 'secondary', size: 'small' })}>
                Request files
              </Link>
              <Link to="/transfers" className={buttonClassName({ variant: 'secondary', size: 'small' })}>
                My transfers
              </Link>
            </span>
          ) : null}
        </header>
        {content}
      </div>
    </>
  );
}
