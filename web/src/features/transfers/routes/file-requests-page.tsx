import { useId, useState } from 'react';
import { APP_NAME } from '@shared/constants';
import { FILE_REQUEST_LIMITS } from '@shared/transfers/file-requests';
import { Button, buttonClassName } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageMeta } from '../../../components/page-meta';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { formatBytes } from '../../../lib/format-bytes';
import { useLoginModal } from '../../../lib/login-modal';
import { useCloseFileRequest } from '../api/close-file-request';
import { useCreateFileRequest } from '../api/create-file-request';
import { useDeleteFileRequest } from '../api/delete-file-request';
import type { FileRequestView } from '../api/file-request-keys';
import { useFileRequests } from '../api/list-file-requests';
import { useTransferHome } from '../api/get-transfer-home';
import { CopyLink } from '../components/copy-link';
import { formatDate, plural } from '../lib/format';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/transfers.module.css';

/** The address anyone uploads at: the request's page, on this site. */
export const requestUrl = (request: Pick<FileRequestView, 'path'>, origin: string = window.location.origin) =>
  `${origin}${request.path}`;

function requestStatus(request: FileRequestView): 'Open' | 'Closed' | 'Expired' {
  if (request.status === 'closed') return 'Closed';
  return request.expired ? 'Expired' : 'Open';
}

function NewRequestForm({ userId }: { userId: string }) {
  const titleId = useId();
  const messageId = useId();
  const expiryId = useId();
  const home = useTransferHome(userId);
  const limits = FILE_REQUEST_LIMITS[home.data?.limits.planId ?? 'free'];
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [days, setDays] = useState<number | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateFileRequest();
  const expiryDays = days ?? limits.defaultExpiryDays;

  return (
    <form
      className={styles.card}
      aria-label="New file request"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!title.trim()) {
          setFormError('Give the request a title.');
          return;
        }
        setFormError(null);
        create.mutate(
          { title: title.trim(), message, expiresInDays: expiryDays },
          {
            onSuccess: () => {
              setTitle('');
              setMessage('');
            },
          },
        );
      }}
    >
      <div className={styles.fieldRow}>
        <div className={fieldStyles.field}>
          <label htmlFor={titleId} className={fieldStyles.label}>
            Title
          </label>
          <input
            id={titleId}
            className={styles.input}
            value={title}
            maxLength={200}
            required
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className={fieldStyles.field}>
          <label htmlFor={expiryId} className={fieldStyles.label}>
            Open for
          </label>
          <select
            id={expiryId}
            className={styles.select}
            value={expiryDays}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {Array.from({ length: limits.maxExpiryDays }, (_, index) => index + 1).map((count) => (
              <option key={count} value={count}>
                {plural(count, 'day')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className={fieldStyles.field}>
        <label htmlFor={messageId} className={fieldStyles.label}>
          Message
        </label>
        <textarea
          id={messageId}
          className={styles.textarea}
          value={message}
          maxLength={2_000}
          onChange={(event) => setMessage(event.target.value)}
        />
      </div>
      <p className={styles.hint}>
        On your plan a request takes up to {plural(limits.maxUploads, 'upload')} and {formatBytes(limits.maxRequestBytes)} in all.
        Whoever has the link can upload, without an account.
      </p>
      {formError || create.isError ? (
        <p className={pageStyles.alert} role="alert">
          {formError ?? (create.error?.message || 'The request was not created. Try again.')}
        </p>
      ) : null}
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create request'}
      </Button>
      {create.data ? (
        <section className={styles.notice} aria-label="New request link">
          <p>
            “{create.data.title}” is open until {formatDate(create.data.expiresAt)}. Share this link:
          </p>
          <CopyLink label="Link to share" url={requestUrl(create.data)} />
        </section>
      ) : null}
    </form>
  );
}

function RequestRow({ request }: { request: FileRequestView }) {
  const close = useCloseFileRequest();
  const remove = useDeleteFileRequest();
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const status = requestStatus(request);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(requestUrl(request));
      setCopied('Link copied.');
    } catch {
      setCopied('Copying failed: open the request and copy its address.');
    }
  };
  return (
    <li className={styles.item}>
      <span className={styles.itemMain}>
        <span className={styles.itemName}>{request.title}</span>
        <span className={styles.itemMeta}>
          {plural(request.finishedCount, 'upload')} received · {formatBytes(request.totalBytes)} · until{' '}
          {formatDate(request.expiresAt)}
        </span>
        <span className={styles.hint} aria-live="polite">
          {copied ?? ''}
          {close.isError ? close.error.message : ''}
        </span>
      </span>
      <span className={styles.status} data-status={status}>
        {status}
      </span>
      {status === 'Open' ? (
        <>
          <Button variant="secondary" size="small" aria-label={`Copy link to ${request.title}`} onClick={() => void copy()}>
            Copy link
          </Button>
          <Button
            variant="secondary"
            size="small"
            aria-label={`Close ${request.title}`}
            disabled={close.isPending}
            onClick={() => close.mutate(request.id)}
          >
            Close
          </Button>
        </>
      ) : null}
      <Button variant="ghost" size="small" aria-label={`Delete ${request.title}`} onClick={() => setConfirming(true)}>
        Delete
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Delete this request?"
          description={
            <>The link to “{request.title}” stops working. The files already sent through it stay in your transfers.</>
          }
          onClose={() => setConfirming(false)}
          confirmLabel="Delete request"
          pendingLabel="Deleting…"
          onConfirm={() => remove.mutate(request.id, { onSuccess: () => setConfirming(false) })}
          pending={remove.isPending}
          error={remove.isError ? remove.error.message || 'Deleting failed. Try again.' : null}
          confirmClassName={styles.danger}
        />
      ) : null}
    </li>
  );
}

function RequestList({ userId }: { userId: string }) {
  const query = useFileRequests(userId);
  if (query.isPending) return <PageSpinner label="Loading your file requests" />;
  // An older page that failed keeps the pages shown: it says so under them.
  if (query.isError && !query.isFetchNextPageError)
    return <ErrorState title="Your file requests could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  const requests = query.data?.pages.flatMap((page) => page.requests) ?? [];
  if (!requests.length) return <EmptyState title="You have not asked anyone for files yet" />;
  return (
    <>
      <ul className={styles.list} aria-label="Your file requests">
        {requests.map((request) => (
          <RequestRow key={request.id} request={request} />
        ))}
      </ul>
      {query.hasNextPage ? (
        <Button variant="secondary" size="small" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? 'Loading…' : 'Show older requests'}
        </Button>
      ) : null}
      {query.isFetchNextPageError ? (
        <p className={styles.hint} role="alert">
          {query.error?.message || 'Older requests could not be loaded. Try again.'}
        </p>
      ) : null}
    </>
  );
}

/** /transfers/requests: ask anyone for files with a link, and see, close or delete one's requests. */
export function FileRequestsPage() {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to ask for files">
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  else
    content = (
      <>
        <NewRequestForm userId={user.userId} />
        <h2 className={styles.sectionTitle}>Your requests</h2>
        <RequestList userId={user.userId} />
      </>
    );

  return (
    <>
      <PageMeta seo={{ title: `Request files · ${APP_NAME}` }} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>Request files</h1>
          <Link to="/transfers" className={buttonClassName({ variant: 'secondary', size: 'small' })}>
            My transfers
          </Link>
        </header>
        {content}
      </div>
    </>
  );
}
