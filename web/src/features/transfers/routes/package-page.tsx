import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { formatBytes } from '../../../lib/format-bytes';
import { acceptTransferInvite } from '../api/accept-transfer-invite';
import { useTransferPackage } from '../api/get-transfer-package';
import { type PackageView, transferKeys } from '../api/transfer-keys';
import type { AcceptInviteAnswer } from '@shared/schemas/transfers';
import { FilePreviews } from '../components/file-previews';
import { downloadLimitReached, DownloadsLeft, LinkRefused, LinkVisitorNotice } from '../components/link-notices';
import { PackageFileCard } from '../components/package-file-card';
import { useOpenLink } from '../components/use-open-link';
import { PackagePasswordForm } from '../components/package-password-form';
import { PASSWORD_REQUIRED_CODE } from '@shared/transfers/passwords';
import { ZipDownloadButton } from '../components/zip-download-button';
import { formatDate, plural, transferName } from '../lib/format';
import styles from '../components/transfers.module.css';
import packageStyles from '../components/package.module.css';

/** The token of an emailed link: `#invite=<token>` on the package's address. */
export function inviteTokenOf(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('invite');
  return token && token.length <= 200 ? token : null;
}

function PackageContent({ view }: { view: PackageView }) {
  const { transfer, files, isOwner } = view;
  const sender = transfer.owner.name || (transfer.owner.username ? `@${transfer.owner.username}` : 'Someone');
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  const limitNoteId = useId();
  // The note saying the limit is spent is also why the download buttons are off.
  const closedBy = downloadLimitReached(transfer, isOwner) ? limitNoteId : undefined;
  return (
    <>
      <header className={packageStyles.intro}>
        <h1 className={styles.title}>{transferName(transfer)}</h1>
        <p className={packageStyles.from}>
          {isOwner ? (
            'You sent'
          ) : (
            <>
              <Link to={`/transfers/people/${encodeURIComponent(transfer.owner.userId)}`}>{sender}</Link> sent you
            </>
          )}{' '}
          {plural(files.length, 'file')}, {formatBytes(totalBytes)}. Available until {formatDate(transfer.expiresAt)}.
        </p>
        <DownloadsLeft transfer={transfer} isOwner={isOwner} id={limitNoteId} />
        {transfer.message ? <p className={packageStyles.message}>{transfer.message}</p> : null}
      </header>
      {files.length ? (
        <>
          <ZipDownloadButton transferId={transfer.id} totalBytes={totalBytes} closedBy={closedBy} />
          <FilePreviews files={files}>
            <section aria-label="Files" className={packageStyles.files}>
              {files.map((file) => (
                <PackageFileCard key={file.id} transferId={transfer.id} file={file} canVote={!isOwner} closedBy={closedBy} />
              ))}
            </section>
          </FilePreviews>
        </>
      ) : (
        <EmptyState title="No files in this transfer" />
      )}
    </>
  );
}

type PackageGrant = AcceptInviteAnswer['grant'];

/**
 * What a spent link gave, said plainly: this package only, never the account behind the address;
 * and, when there was none, that an account was made for it.
 */
function GrantNotice({ grant, onLogIn }: { grant: PackageGrant; onLogIn: () => void }) {
  return (
    <section role="status" aria-label="How you opened this transfer" className={packageStyles.message}>
      <p>
        You opened this transfer with the link sent to <strong>{grant.email}</strong>. The link opens this transfer only (you can
        view, vote and download until {formatDate(grant.expiresAt)}), not an account.
      </p>
      {grant.accountCreated ? (
        <>
          <p>
            <strong>We made an account for {grant.email}</strong> so your votes are kept. You are not logged in: the link opens no
            account.
          </p>
          <p>
            Log in with {grant.email} (we email you a link) to choose your username and name, keep this transfer among the ones you
            received, and send files yourself. If you do nothing, the account holds just your votes.
          </p>
        </>
      ) : (
        <p>Log in with {grant.email} to keep this transfer in your account.</p>
      )}
      <StateLinks>
        <Button onClick={onLogIn}>Log in</Button>
      </StateLinks>
    </section>
  );
}

/** A visitor back on a package their emailed link opened earlier (a reload, a bookmark): the link's grant still opens it. */
function VisitorNotice({ onLogIn }: { onLogIn: () => void }) {
  return (
    <section role="status" aria-label="How you opened this transfer" className={packageStyles.message}>
      <p>You opened this transfer with its emailed link, which opens this transfer only, not an account.</p>
      <StateLinks>
        <Button onClick={onLogIn}>Log in</Button>
      </StateLinks>
    </section>
  );
}

/** The expiry date a 410 carries, when it does. */
function expiredAtOf(error: ApiError): string | null {
  const value = error.body?.expiredAt;
  return typeof value === 'string' ? value : null;
}

/**
 * /transfer/:id/package: a transfer as its recipients see it. Opened from the emailed link
 * (`#invite=<token>`), the link is spent first: that answers the package with a grant for it alone
 * (an HttpOnly cookie; nobody is signed in), and the token leaves the address at once.
 */
export function PackagePage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const loginModal = useLoginModal();
  const { user, isPending: userPending } = useCurrentUser();
  const token = inviteTokenOf(location.hash);
  const link = useOpenLink(id);

  const invite = useMutation({
    mutationFn: ({ transferId, inviteToken }: { transferId: string; inviteToken: string }) =>
      acceptTransferInvite(transferId, inviteToken),
    onSuccess: (answer, { transferId }) => {
      // A protected package comes without its contents: the package query asks, and is told to unlock.
      if ('passwordRequired' in answer) return;
      const { grant: _grant, ...view } = answer;
      queryClient.setQueryData(transferKeys.package(transferId), view);
    },
  });
  const spent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || spent.current === token) return;
    spent.current = token;
    invite.mutate(
      { transferId: id, inviteToken: token },
      {
        // The token is spent (or refused for good): it leaves the address, so a reload or a
        // shared address does not try it again. A failed connection leaves it for a retry.
        onSettled: (_view, error) => {
          if (!error || (error instanceof ApiError && error.status < 500)) {
            void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });
          }
        },
      },
    );
  }, [token, id, invite, navigate, location.pathname, location.search, location.state]);

  const accepting = (token !== null && !invite.isError) || link.opening;
  // The grant opens the package to a visitor too (its cookie goes with every package call, and
  // outlives a reload): without a session the package is asked for all the same, and only a 401
  // says to log in.
  const grant = invite.data?.grant ?? null;
  const query = useTransferPackage(id, !accepting && !invite.isPending && !userPending);
  const data = query.data;
  const needsLogIn = !user && query.error instanceof ApiError && query.error.status === 401;

  let content;
  let title = `Transfer · ${APP_NAME}`;
  if (data) {
    title = `${transferName(data.transfer)} · ${APP_NAME}`;
    content = (
      <>
        {grant && !user ? <GrantNotice grant={grant} onLogIn={loginModal.open} /> : null}
        {!grant && !user ? (
          data.transfer.delivery === 'link' ? (
            <LinkVisitorNotice onLogIn={loginModal.open} />
          ) : (
            <VisitorNotice onLogIn={loginModal.open} />
          )
        ) : null}
        <PackageContent view={data} />
      </>
    );
  } else if (accepting || invite.isPending) {
    content = <PageSpinner label="Opening your transfer" />;
  } else if (link.error) {
    content = <LinkRefused error={link.error} onRetry={link.retry} />;
  } else if (invite.isError) {
    const refusal = invite.error instanceof ApiError && invite.error.status === 400;
    content = refusal ? (
      <EmptyState title="This link cannot open the transfer" icon="!" level={1}>
        <p role="alert">{invite.error.message}</p>
        {!user ? (
          <StateLinks>
            <Button onClick={loginModal.open}>Log in</Button>
          </StateLinks>
        ) : null}
      </EmptyState>
    ) : (
      <ErrorState
        title="The transfer could not be opened"
        error={invite.error}
        onRetry={() => invite.mutate({ transferId: id, inviteToken: spent.current ?? '' })}
      />
    );
  } else if (query.error instanceof ApiError && query.error.code === PASSWORD_REQUIRED_CODE) {
    content = <PackagePasswordForm transferId={id} />;
  } else if (userPending) {
    content = <PageSpinner label="Loading the transfer" />;
  } else if (needsLogIn) {
    content = (
      <EmptyState title="Log in to see this transfer" level={1}>
        <p>Use the address the transfer was sent to, or open the link in the email again.</p>
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  } else if (query.error instanceof ApiError && query.error.status === 404) {
    content = (
      <NotFoundState title="This transfer does not exist or was not sent to you">
        <StateLinks>
          <Link to="/transfers?tab=received">Your received transfers</Link>
        </StateLinks>
      </NotFoundState>
    );
  } else if (query.error instanceof ApiError && query.error.status === 410) {
    const expiredAt = expiredAtOf(query.error);
    content = (
      <EmptyState title="This transfer has expired" icon="⌛" level={1}>
        <p>{expiredAt ? `It expired on ${formatDate(expiredAt)} and its files were deleted.` : query.error.message}</p>
        <p>Ask the sender to send the files again.</p>
      </EmptyState>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="The transfer could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    content = <PageSpinner label="Loading the transfer" />;
  }

  return (
    <>
      <PageMeta seo={{ title }} />
      <div className={styles.page}>{content}</div>
    </>
  );
}
