import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { formatBytes } from '../../../lib/format-bytes';
import { useAddRecipient } from '../api/add-recipient';
import { useTransfer } from '../api/get-transfer';
import type { MemberView, TransferView } from '../api/transfer-keys';
import { CopyLink } from '../components/copy-link';
import { DownloadLog } from '../components/download-log';
import { DeleteTransferDialog } from '../components/delete-transfer-dialog';
import { formatDate, formatDateTime, looksLikeEmail, packageUrl, plural, transferName, transferStatus } from '../lib/format';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/transfers.module.css';

/** What a recipient downloaded, oldest first, by file name ('all' is the zip). */
function downloadsOf(member: MemberView, names: ReadonlyMap<string, string>): string[] {
  return member.downloads.map(
    ({ fileId, at }) =>
      `${fileId === 'all' ? 'All files (zip)' : (names.get(fileId) ?? 'A deleted file')}, ${formatDateTime(at)}`,
  );
}

function AddRecipientForm({ transferId, disabled }: { transferId: string; disabled: boolean }) {
  const inputId = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddRecipient(transferId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!looksLikeEmail(value)) {
      setProblem(`“${value}” is not an email address.`);
      return;
    }
    setProblem(null);
    add.mutate(value, {
      onSuccess: () => {
        setEmail('');
        toast.success(`${value} is added`);
      },
    });
  };
  const error = problem ?? (add.isError ? add.error.message : null);
  return (
    <form className={fieldStyles.field} onSubmit={submit} noValidate>
      <label htmlFor={inputId} className={fieldStyles.label}>
        Add a recipient
      </label>
      <div className={styles.copyRow}>
        <input
          id={inputId}
          type="email"
          className={styles.input}
          placeholder="name@example.com"
          value={email}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={disabled || add.isPending || !email.trim()}>
          {add.isPending ? 'Adding…' : 'Add'}
        </Button>
      </div>
      {error ? (
        <p className={pageStyles.alert} role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function TransferDetails({ view }: { view: TransferView }) {
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const { transfer, files, members, limits } = view;
  const status = transferStatus(transfer);
  const names = new Map(files.map((file) => [file.id, file.name]));
  const isSent = transfer.status === 'sent' && !transfer.expired;
  const name = transferName(transfer);

  return (
    <>
      <header className={styles.header}>
        <h1 className={styles.title}>{name}</h1>
        <span className={styles.status} data-status={status}>
          {status}
        </span>
      </header>
      <dl className={styles.facts}>
        <dt>Created</dt>
        <dd>{formatDateTime(transfer.createdAt)}</dd>
        {transfer.finalizedAt ? (
          <>
            <dt>Sent</dt>
            <dd>{formatDateTime(transfer.finalizedAt)}</dd>
          </>
        ) : null}
        <dt>{transfer.expired ? 'Expired' : 'Available until'}</dt>
        <dd>{formatDate(transfer.expiresAt)}</dd>
        <dt>Files</dt>
        <dd>
          {plural(transfer.fileCount, 'file')}, {formatBytes(transfer.totalBytes)}
        </dd>
        {transfer.passwordProtected ? (
          <>
            <dt>Access</dt>
            <dd>Password protected</dd>
          </>
        ) : null}
      </dl>
      {transfer.message ? <p className={styles.message}>{transfer.message}</p> : null}

      {isSent && transfer.delivery === 'email' ? <CopyLink label="Package link" url={packageUrl(transfer.id)} /> : null}
      {transfer.status === 'draft' && !transfer.expired ? (
        <div className={styles.notice} role="status">
          <p>This transfer was not sent yet: nobody has been told of it.</p>
          <Link to="/transfer" className={styles.noticeLink}>
            Finish it on the send page
          </Link>
        </div>
      ) : null}

      <section className={pageStyles.section} aria-labelledby="transfer-files">
        <h2 id="transfer-files" className={styles.sectionTitle}>
          Files
        </h2>
        {files.length ? (
          <ul className={styles.list} aria-label="Files">
            {files.map((file) => (
              <li key={file.id} className={styles.item}>
                <span className={styles.itemMain}>
                  <span className={styles.itemName}>{file.name}</span>
                  <span className={styles.itemMeta}>
                    {formatBytes(file.size)} · {file.status === 'ready' ? 'uploaded' : 'upload not finished'} ·{' '}
                    {plural(file.likes, 'like')} · {plural(file.dislikes, 'dislike')}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className={styles.hint}>No files yet.</p>
        )}
      </section>

      <section className={pageStyles.section} aria-labelledby="transfer-recipients">
        <h2 id="transfer-recipients" className={styles.sectionTitle}>
          Recipients
        </h2>
        {members.length ? (
          <ul className={styles.list} aria-label="Recipients">
            {members.map((member) => {
              const downloads = downloadsOf(member, names);
              return (
                <li key={member.email} className={styles.item}>
                  <span className={styles.itemMain}>
                    <span className={styles.itemName}>{member.name ? `${member.name} (${member.email})` : member.email}</span>
                    <span className={styles.itemMeta}>
                      {member.firstDownloadAt ? `Downloaded ${formatDateTime(member.firstDownloadAt)}` : 'Not downloaded yet'}
                    </span>
                    {downloads.length ? (
                      <ul className={styles.alertList} aria-label={`What ${member.email} downloaded`}>
                        {downloads.map((line, index) => (
                          <li key={index} className={styles.itemMeta}>
                            {line}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className={styles.hint}>No recipients yet.</p>
        )}
        {!transfer.expired ? (
          <AddRecipientForm transferId={transfer.id} disabled={members.length >= limits.maxRecipients} />
        ) : null}
      </section>

      {isSent ? <DownloadLog transfer={transfer} /> : null}

      <div className={pageStyles.actions}>
        {isSent ? (
          <Link to={`/transfer/${encodeURIComponent(transfer.id)}/package`} className={buttonClassName({ variant: 'secondary' })}>
            Open the package
          </Link>
        ) : null}
        <Button className={styles.danger} onClick={() => setDeleting(true)}>
          Delete transfer
        </Button>
      </div>
      {deleting ? (
        <DeleteTransferDialog
          transferId={transfer.id}
          name={name}
          onClose={() => setDeleting(false)}
          onDeleted={() => {
            toast.success('The transfer was deleted');
            void navigate('/transfers', { replace: true });
          }}
        />
      ) : null}
    </>
  );
}

/** /transfers/:id: the sender's view of one transfer: files, who downloaded what, more recipients, delete. */
export function TransferPage() {
  const { id = '' } = useParams();
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const query = useTransfer(id, Boolean(user));

  let content;
  if (query.data) content = <TransferDetails view={query.data} />;
  else if (userPending) content = <PageSpinner label="Loading the transfer" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to see your transfer" level={1}>
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  else if (query.error instanceof ApiError && query.error.status === 404)
    content = (
      <NotFoundState title="This transfer does not exist or is not yours">
        <StateLinks>
          <Link to="/transfers">My transfers</Link>
        </StateLinks>
      </NotFoundState>
    );
  else if (query.isError)
    content = (
      <ErrorState
        title="The transfer could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else content = <PageSpinner label="Loading the transfer" />;

  return (
    <>
      <PageMeta seo={{ title: `${query.data ? transferName(query.data.transfer) : 'Transfer'} · ${APP_NAME}` }} />
      <div className={styles.page}>
        <Link to="/transfers" className={styles.hint}>
          ← My transfers
        </Link>
        {content}
      </div>
    </>
  );
}
