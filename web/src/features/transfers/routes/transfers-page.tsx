import { useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useOwnTransfers } from '../api/list-own-transfers';
import { useReceivedTransfers } from '../api/list-received-transfers';
import { TransferList } from '../components/transfer-list';
import styles from '../components/transfers.module.css';

type Tab = 'sent' | 'received';

function SentTransfers({ userId }: { userId: string }) {
  const query = useOwnTransfers(userId);
  if (query.isPending) return <PageSpinner label="Loading your transfers" />;
  if (query.isError)
    return <ErrorState title="Your transfers could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  const transfers = query.data.pages.flatMap((page) => page.transfers);
  if (!transfers.length)
    return (
      <EmptyState title="You have sent nothing yet">
        <StateLinks>
          <Link to="/transfer">Send files</Link>
        </StateLinks>
      </EmptyState>
    );
  return (
    <TransferList
      label="Sent transfers"
      transfers={transfers}
      linkTo={(transfer) => `/transfers/${encodeURIComponent(transfer.id)}`}
      query={query}
    />
  );
}

function ReceivedTransfers({ userId }: { userId: string }) {
  const query = useReceivedTransfers(userId);
  if (query.isPending) return <PageSpinner label="Loading the transfers you received" />;
  if (query.isError)
    return (
      <ErrorState title="Your received transfers could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
    );
  const transfers = query.data.pages.flatMap((page) => page.transfers);
  if (!transfers.length) return <EmptyState title="Nobody has sent you files yet" />;
  return (
    <TransferList
      label="Received transfers"
      transfers={transfers}
      linkTo={(transfer) => `/transfer/${encodeURIComponent(transfer.id)}/package`}
      viewer="recipient"
      query={query}
    />
  );
}

/** /transfers (sent) and /transfers?tab=received: the transfers one has sent and received. */
export function TransfersPage() {
  const [searchParams] = useSearchParams();
  const tab: Tab = searchParams.get('tab') === 'received' ? 'received' : 'sent';
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to see your transfers">
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  else content = tab === 'sent' ? <SentTransfers userId={user.userId} /> : <ReceivedTransfers userId={user.userId} />;

  return (
    <>
      <PageMeta seo={{ title: `My transfers · ${APP_NAME}` }} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>My transfers</h1>
          <Link to="/transfer" className={buttonClassName({ size: 'small' })}>
            Send files
          </Link>
        </header>
        <nav aria-label="Transfers" className={styles.tabs}>
          <Link to="/transfers" className={styles.tab} aria-current={tab === 'sent' ? 'page' : undefined}>
            Sent
          </Link>
          <Link to="/transfers?tab=received" className={styles.tab} aria-current={tab === 'received' ? 'page' : undefined}>
            Received
          </Link>
          <Link to="/transfers/requests" className={styles.tab}>
            Request files
          </Link>
        </nav>
        {content}
      </div>
    </>
  );
}
