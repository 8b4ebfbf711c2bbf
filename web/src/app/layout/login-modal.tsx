import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { GoogleIcon } from '../../components/google-icon';
import { ArrowLeftIcon, CloseIcon, MailIcon } from '../../components/icons';
import { track } from '../../lib/analytics';
import { ApiError } from '../../lib/api-client';
import { useLoginModal } from '../../lib/login-modal';
import { botNotice, DEFAULT_RECAPTCHA_SCORE, isLikelyBot } from '../../lib/recaptcha';
import { useReturnFocus } from '../../lib/return-focus';
import { SUPPORT_EMAIL } from '../../lib/site-links';
import { assessLoginBotScore } from '../../features/account/api/assess-recaptcha';
import { currentReturnTo, startGoogleLogin } from '../../features/account/api/google-login-url';
import { isRateLimited, looksLikeEmail, useSendLoginEmail } from '../../features/account/api/send-login-email';
import { APP_NAME } from '@shared/constants';
import styles from '../../components/dialog.module.css';

/** The login modal's overlay sits at z-index 900: above the drawer (800) and the top bar (100). */
export const LOGIN_OVERLAY_Z_INDEX = 900;

export type LoginView = 'options' | 'email' | 'sent';

const GOOGLE_FAILED = 'Google login could not start. Please try again, or continue with email.';

/**
 * The login modal: the first view offers Google or email; the email view
 * has an email input and Send; after sending, 'Login link sent to {email}' with Ok and Resend
 * link. 'All login options' goes back to the first view.
 *
 * Sending: a 429 shows the server's message (when to try again); any other failure is only
 * tracked (the spec: "Failed login-link sends: tracked only"), as a 'Login Link Failed' event that
 * says whether the server or the network failed and never holds the address, plus a console
 * warning; no user message, and the sent view shows anyway, with its Resend link.
 *
 * Bot check (reCAPTCHA Enterprise): each time the modal opens it assesses a reCAPTCHA token
 * for 'login'. Below 0.5 the Google button is disabled and the bot notice shows; until the
 * answer arrives, and when the check cannot run, the default score 1 applies, so a broken bot
 * check never blocks login. Email login is not gated.
 *
 * Google: asks the API for Google's URL (returnTo = this page) and sends the top window there.
 */
export function LoginModal() {
  const { isOpen, close } = useLoginModal();
  const sendLink = useSendLoginEmail();
  const sending = sendLink.isPending;
  const [view, setView] = useState<LoginView>('options');
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [resent, setResent] = useState(false);
  /** What stops the send: an address that is not an email, or the server's rate limit message. */
  const [problem, setProblem] = useState<{ kind: 'invalid' | 'limited'; message: string } | null>(null);
  const [botScore, setBotScore] = useState(DEFAULT_RECAPTCHA_SCORE);
  const [googlePending, setGooglePending] = useState(false);
  const [googleProblem, setGoogleProblem] = useState<string | null>(null);
  const suspectedBot = isLikelyBot(botScore);

  useEffect(() => {
    if (!isOpen) return;
    const controller = new AbortController();
    void assessLoginBotScore(controller.signal).then((score) => {
      if (!controller.signal.aborted) setBotScore(score);
    });
    return () => {
      controller.abort();
      // The next opening is checked afresh.
      setBotScore(DEFAULT_RECAPTCHA_SCORE);
    };
  }, [isOpen]);

  const onContinueWithGoogle = async () => {
    if (googlePending || suspectedBot) return;
    setGoogleProblem(null);
    setGooglePending(true);
    try {
      // On success the page goes to Google, so the button stays busy.
      await startGoogleLogin();
    } catch (error) {
      console.warn('Starting Google login failed', error);
      setGoogleProblem(GOOGLE_FAILED);
      setGooglePending(false);
    }
  };

  /** Sends the link; false only when the server refused with its rate limit. */
  const send = async (address: string): Promise<boolean> => {
    setProblem(null);
    try {
      await sendLink.mutateAsync({ email: address, contextData: { pagePath: currentReturnTo() } });
    } catch (error) {
      if (isRateLimited(error)) {
        setProblem({ kind: 'limited', message: error.message });
        return false;
      }
      // Tracked only, no user message: the sent view that follows offers Resend.
      track('Login Link Failed', { reason: error instanceof ApiError ? 'server' : 'network' });
      console.warn('Sending the login link failed', error);
    }
    return true;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setProblem({ kind: 'invalid', message: 'Enter a valid email address' });
      return;
    }
    if (!(await send(address))) return;
    setSentTo(address);
    setResent(false);
    setView('sent');
  };

  const onResend = async () => {
    setResent(false);
    if (await send(sentTo)) setResent(true);
  };

  const showView = (next: LoginView) => {
    setResent(false);
    setProblem(null);
    setGoogleProblem(null);
    setView(next);
  };

  const returnFocus = useReturnFocus(isOpen);

  const onOpenChange = (open: boolean) => {
    if (open) return;
    close();
    showView('options');
  };

  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} style={{ zIndex: LOGIN_OVERLAY_Z_INDEX }} data-testid="login-overlay" />
        <Dialog.Content className={styles.modal} style={{ zIndex: LOGIN_OVERLAY_Z_INDEX + 1 }} onCloseAutoFocus={returnFocus}>
          <Dialog.Close asChild>
            <Button variant="ghost" iconOnly className={styles.close} aria-label="Close">
              <CloseIcon />
            </Button>
          </Dialog.Close>

          {view === 'options' ? (
            <>
              <Dialog.Title className={styles.title}>Log in to {APP_NAME}</Dialog.Title>
              <Dialog.Description className={styles.description}>
                Follow publications and get notified when they climb the ranks.
              </Dialog.Description>
              <div className={styles.stack}>
                <Button
                  variant="secondary"
                  block
                  onClick={onContinueWithGoogle}
                  disabled={suspectedBot || googlePending}
                  aria-busy={googlePending || undefined}
                  aria-describedby={suspectedBot ? 'login-bot-notice' : googleProblem ? 'login-google-problem' : undefined}
                >
                  <GoogleIcon />
                  Continue with Google
                </Button>
                <Button variant="secondary" block onClick={() => showView('email')}>
                  <MailIcon size={18} />
                  Continue with email
                </Button>
              </div>
              {suspectedBot ? (
                <p id="login-bot-notice" className={`${styles.note} ${styles.problem}`} role="status">
                  {botNotice(botScore, SUPPORT_EMAIL)}
                </p>
              ) : null}
              {googleProblem ? (
                <p id="login-google-problem" className={`${styles.note} ${styles.problem}`} role="alert">
                  {googleProblem}
                </p>
              ) : null}
            </>
          ) : null}

          {view === 'email' ? (
            <form className={styles.stack} onSubmit={onSubmit}>
              <Dialog.Title className={styles.title}>Log in with email</Dialog.Title>
              <Dialog.Description className={styles.note}>
                We will email you a link that logs you in. No password needed.
              </Dialog.Description>
              <label className={styles.field}>
                Email
                <input
                  className={styles.input}
                  type="email"
                  name="email"
                  autoComplete="email"
                  required
                  autoFocus
                  value={email}
                  onChange={(event) => {
                    setEmail(event.target.value);
                    if (problem?.kind === 'invalid') setProblem(null);
                  }}
                  placeholder="you@example.com"
                  aria-invalid={problem?.kind === 'invalid' ? true : undefined}
                  aria-describedby={problem ? 'login-email-problem' : undefined}
                />
              </label>
              {problem ? (
                <p id="login-email-problem" className={`${styles.note} ${styles.problem}`} role="alert">
                  {problem.message}
                </p>
              ) : null}
              <Button type="submit" block disabled={sending} aria-busy={sending}>
                {sending ? 'Sending…' : 'Send'}
              </Button>
              <Button variant="ghost" size="small" className={styles.back} onClick={() => showView('options')}>
                <ArrowLeftIcon size={16} />
                All login options
              </Button>
            </form>
          ) : null}

          {view === 'sent' ? (
            <div className={styles.stack}>
              <span className={styles.sentIcon}>
                <MailIcon size={24} />
              </span>
              <Dialog.Title className={styles.title}>Login link sent to {sentTo}</Dialog.Title>
              <Dialog.Description className={styles.note}>
                Open the link in that email to log in. It can take a minute to arrive; check your spam folder too.
              </Dialog.Description>
              {resent ? (
                <p className={styles.note} role="status">
                  We sent a new link.
                </p>
              ) : null}
              {problem ? (
                <p className={`${styles.note} ${styles.problem}`} role="alert">
                  {problem.message}
                </p>
              ) : null}
              <div className={styles.row}>
                <Button variant="secondary" onClick={onResend} disabled={sending} aria-busy={sending}>
                  {sending ? 'Sending…' : 'Resend link'}
                </Button>
                <Button onClick={() => onOpenChange(false)}>Ok</Button>
              </div>
              <Button variant="ghost" size="small" className={styles.back} onClick={() => showView('options')}>
                <ArrowLeftIcon size={16} />
                All login options
              </Button>
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
