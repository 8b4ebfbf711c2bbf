import { useEffect, useRef } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { Spinner } from '../../../components/spinner';
import { ApiError } from '../../../lib/api-client';
import { useLogout } from '../api/logout';
import { AccountCard } from '../components/account-card';

/**
 * /logout : the avatar menu's plain Logout link. Ends the session once on arrival, forgets the
 * current user, and says so with a way back to the rankings.
 */
export function LogoutPage() {
  const logout = useLogout();
  const { mutate } = logout;
  const started = useRef(false);

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  const home = (
    <Link to="/" className={buttonClassName()}>
      Back to the rankings
    </Link>
  );

  let content;
  if (logout.isSuccess) {
    content = (
      <AccountCard icon="✓" title="You are logged out" role="status" actions={home}>
        <p>See you soon. You can log in again from the top bar.</p>
      </AccountCard>
    );
  } else if (logout.isError) {
    content = (
      <AccountCard
        icon="!"
        tone="error"
        title="Logging out failed"
        role="alert"
        actions={
          <>
            <Button onClick={() => mutate()}>Try again</Button>
            {home}
          </>
        }
      >
        <p>
          {logout.error instanceof ApiError
            ? logout.error.message
            : 'The server did not answer. Check your connection and try again.'}
        </p>
      </AccountCard>
    );
  } else {
    content = (
      <AccountCard icon="↩" title="Logging out…">
        <Spinner label="Logging out" />
      </AccountCard>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Logged out · ${APP_NAME}` }} />
      {content}
    </>
  );
}
