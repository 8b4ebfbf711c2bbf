import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { Spinner } from '../../../components/spinner';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { isActionLinkError, useCompleteAction, VERIFY_EMAIL_ACTION } from '../api/complete-action';
import { isAlreadyVerified, useSendVerificationEmail } from '../api/send-verification-email';
import { isRateLimited } from '../api/send-login-email';
import { AccountCard } from '../components/account-card';

const NO_ANSWER = 'The server did not answer. Check your connection and try again.';

/** A signed-in user whose verification link cannot be used asks for a new one here. */
function ResendVerification() {
  const send = useSendVerificationEmail();

  let outcome = null;
  if (send.isSuccess) {
    outcome = <p role="status">We sent a new verification link. Check your email.</p>;
  } else if (send.isError) {
    outcome = (
      <p role="alert">
        {isAlreadyVerified(send.error)
          ? 'Your email address is already verified.'
          : isRateLimited(send.error) || send.error instanceof ApiError
            ? send.error.message
            : NO_ANSWER}
      </p>
    );
  }

  return (
    <div>
      {outcome}
      {send.isSuccess || isAlreadyVerified(send.error) ? null : (
        <Button onClick={() => send.mutate()} disabled={send.isPending} aria-busy={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send a new verification link'}
        </Button>
      )}
    </div>
  );
}

/**
 * /authed/{authToken}/action/{type} : the page an emailed action link (verify-email) opens.
 * Spends the link once on arrival and says how it went; a verification link that cannot be
 * used offers a new one to the signed-in user.
 */
export function ActionLinkPage() {
  const { authToken = '', type = '' } = useParams();
  const { user } = useCurrentUser();
  const action = useCompleteAction();
  const { mutate } = action;
  const started = useRef(false);
  const isVerifyEmail = type === VERIFY_EMAIL_ACTION;

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development: the link works once.
    if (started.current) return;
    started.current = true;
    mutate({ authToken, type });
  }, [mutate, authToken, type]);

  const home = (
    <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
      Back to the rankings
    </Link>
  );

  let content;
  if (action.isSuccess) {
    content = isVerifyEmail ? (
      <AccountCard icon="✓" title="Your email address is verified" role="status" actions={home}>
        <p>Thank you. Your account is all set.</p>
      </AccountCard>
    ) : (
      <AccountCard icon="✓" title="Done" role="status" actions={home}>
        <p>The link did its job.</p>
      </AccountCard>
    );
  } else if (action.isError && isActionLinkError(action.error)) {
    if (isVerifyEmail && action.error.code === 'ACTION_LINK_USED') {
      // Mail scanners often open links before the person does, which spends them.
      content = (
        <AccountCard icon="✓" title="Link already used" role="status" actions={home}>
          <p>This link was already used. If you opened it before, your email is already verified.</p>
        </AccountCard>
      );
    } else {
      content = (
        <AccountCard icon="!" tone="error" title="This link cannot be used" role="alert" actions={home}>
          <p>{action.error.message}</p>
          {isVerifyEmail && user ? <ResendVerification /> : null}
        </AccountCard>
      );
    }
  } else if (action.isError) {
    content = (
      <AccountCard
        icon="!"
        tone="error"
        title="Something went wrong"
        role="alert"
        actions={
          <>
            <Button onClick={() => mutate({ authToken, type })}>Try again</Button>
            {home}
          </>
        }
      >
        <p>{action.error instanceof ApiError ? action.error.message : NO_ANSWER}</p>
      </AccountCard>
    );
  } else {
    content = (
      <AccountCard icon="…" title="Checking your link…">
        <Spinner label="Checking your link" />
      </AccountCard>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `${isVerifyEmail ? 'Verify email' : 'Email link'} · ${APP_NAME}` }} />
      {content}
    </>
  );
}
