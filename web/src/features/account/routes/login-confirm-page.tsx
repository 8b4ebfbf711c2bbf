import { useLocation, useNavigate } from 'react-router';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { MailIcon } from '../../../components/icons';
import { ApiError } from '../../../lib/api-client';
import { PageMeta } from '../../../components/page-meta';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { isLoginLinkError, useConfirmLoginEmail } from '../api/confirm-login-email';
import { AccountCard } from '../components/account-card';
import { track } from '../../../lib/analytics';

/** The emailed link is `/login/confirm#token=<token>`: the token rides in the fragment, never sent to a server. */
export function readLoginToken(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token?.trim() ? token.trim() : null;
}

/** Drop the spent token from the address bar and the history entry. */
function forgetTokenInUrl(): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}

/**
 * /login/confirm#token=... : the page the login email links to. It asks before logging in, so
 * a mail scanner that opens the link does not spend it; 'Log in' confirms, sets the current
 * user and goes back to the page the login started from. A bad, used or expired link says so
 * and offers a new one.
 */
export function LoginConfirmPage() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const loginModal = useLoginModal();
  const confirm = useConfirmLoginEmail();
  const token = readLoginToken(hash);

  const sendNewLink = <Button onClick={loginModal.open}>Send a new link</Button>;

  const logIn = () => {
    if (!token) return;
    confirm.mutate(token, {
      onSuccess: ({ isNewAccount, returnTo }) => {
        track('Login', { method: 'email', success: true });
        forgetTokenInUrl();
        toast.success(isNewAccount ? `Welcome to ${APP_NAME}` : 'You are logged in');
        // Back to the page the login started from (the server vetted it: a path on this site).
        void navigate(returnTo, { replace: true });
      },
      onError: () => track('Login', { method: 'email', success: false }),
    });
  };

  let content;
  if (!token) {
    content = (
      <AccountCard icon="!" tone="error" title="This login link is incomplete" actions={sendNewLink}>
        <p>Part of the link is missing. Copy the whole link from the email, or ask for a new one.</p>
      </AccountCard>
    );
  } else if (confirm.isError && isLoginLinkError(confirm.error)) {
    content = (
      <AccountCard icon="!" tone="error" title="This login link cannot be used" role="alert" actions={sendNewLink}>
        <p>{confirm.error.message}</p>
      </AccountCard>
    );
  } else {
    content = (
      <AccountCard
        icon={<MailIcon size={22} />}
        title={`Log in to ${APP_NAME}`}
        actions={
          <Button onClick={logIn} disabled={confirm.isPending || confirm.isSuccess} aria-busy={confirm.isPending}>
            {confirm.isPending ? 'Logging in…' : 'Log in'}
          </Button>
        }
      >
        <p>Press Log in to finish logging in on this device.</p>
        {confirm.isError ? (
          <p role="alert">
            {confirm.error instanceof ApiError
              ? `Logging in failed: ${confirm.error.message}`
              : 'The server did not answer. Check your connection.'}{' '}
            Press Log in to try again.
          </p>
        ) : null}
      </AccountCard>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Log in · ${APP_NAME}` }} />
      {content}
    </>
  );
}
