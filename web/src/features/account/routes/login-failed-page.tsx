import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import type { OauthFailureReason } from '@shared/schemas/oauth';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { useLoginModal } from '../../../lib/login-modal';
import { AccountCard } from '../components/account-card';
import { track } from '../../../lib/analytics';

const DEFAULT_MESSAGE = 'Google could not log you in. Please try again.';

/** What each failure of the Google callback means to the person who tried to log in. */
const MESSAGES: Partial<Record<OauthFailureReason, string>> = {
  cancelled: 'You cancelled the Google login.',
  state_expired: 'The login took too long. Please try again.',
  browser_mismatch: 'The login was started in another browser or tab. Please try again here.',
  not_configured: 'Google login is not available right now. Use the email login instead.',
  already_linked: 'That Twitter account is already connected to another TopPubs account.',
};

/** The message for a `?reason=` code; unknown or missing codes get the general one. */
export function loginFailedMessage(reason: string | null): string {
  return (reason && Object.hasOwn(MESSAGES, reason) ? MESSAGES[reason as OauthFailureReason] : undefined) ?? DEFAULT_MESSAGE;
}

/**
 * /login/failed?reason=<code> : where the Google callback sends the browser when a login cannot
 * finish. Says why in plain words and offers the login modal again, or the way home.
 */
export function LoginFailedPage() {
  const [searchParams] = useSearchParams();
  const loginModal = useLoginModal();
  const message = loginFailedMessage(searchParams.get('reason'));
  const reason = searchParams.get('reason');
  // The page is Google's, but for a Twitter account already linked elsewhere.
  useEffect(() => track('Login', { method: reason === 'already_linked' ? 'twitter' : 'google', success: false }), [reason]);

  return (
    <>
      <PageMeta seo={{ title: `Login failed · ${APP_NAME}` }} />
      <AccountCard
        icon="!"
        tone="error"
        title="Login failed"
        role="alert"
        actions={
          <>
            <Button onClick={loginModal.open}>Try again</Button>
            <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
              Back to the rankings
            </Link>
          </>
        }
      >
        <p>{message}</p>
      </AccountCard>
    </>
  );
}
