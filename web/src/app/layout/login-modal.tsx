import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { ArrowLeftIcon, CloseIcon, GoogleIcon, MailIcon } from '../../components/icons';
import { useLoginModal } from '../../lib/login-modal';
import { APP_NAME } from '../../../../shared/constants';
import styles from './dialog.module.css';

/** SPEC.md section 9: the login modal's overlay sits at z-index 900. */
export const LOGIN_OVERLAY_Z_INDEX = 900;

export type LoginView = 'options' | 'email' | 'sent';

/** Placeholder until the accounts issue wires the real call: sends nothing. */
export const sendLoginEmailPlaceholder = (_email: string): Promise<void> => Promise.resolve();

export interface LoginModalProps {
  /** Sends the login link. Failures are only tracked (SPEC.md section 7): the sent view shows anyway. */
  onSendEmail?: (email: string) => Promise<void>;
  /** Starts Google sign-in; until it exists the button leads to the email view. */
  onContinueWithGoogle?: () => void;
}

/**
 * The login modal (SPEC.md section 4): the first view offers Google or email; the email view
 * has an email input and Send; after sending, 'Login link sent to {email}' with Ok and Resend
 * link. 'All login options' goes back to the first view.
 */
export function LoginModal({ onSendEmail = sendLoginEmailPlaceholder, onContinueWithGoogle }: LoginModalProps) {
  const { isOpen, close } = useLoginModal();
  const [view, setView] = useState<LoginView>('options');
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [resent, setResent] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      await onSendEmail(email);
    } catch (error) {
      // Tracked only, no user message (SPEC.md section 7, "Behaviour on answers").
      console.warn('Sending the login link failed', error);
    } finally {
      setSending(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await send();
    setResent(false);
    setView('sent');
  };

  const onResend = async () => {
    await send();
    setResent(true);
  };

  const showOptions = () => {
    setResent(false);
    setView('options');
  };

  const onOpenChange = (open: boolean) => {
    if (open) return;
    close();
    setView('options');
    setResent(false);
  };

  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} style={{ zIndex: LOGIN_OVERLAY_Z_INDEX }} data-testid="login-overlay" />
        <Dialog.Content className={styles.modal} style={{ zIndex: LOGIN_OVERLAY_Z_INDEX + 1 }}>
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
                <Button variant="secondary" block onClick={onContinueWithGoogle ?? (() => setView('email'))}>
                  <GoogleIcon />
                  Continue with Google
                </Button>
                <Button variant="secondary" block onClick={() => setView('email')}>
                  <MailIcon size={18} />
                  Continue with email
                </Button>
              </div>
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
                  onChange={(event) => setEmail(event.target.value)}
                  placeholder="you@example.com"
                />
              </label>
              <Button type="submit" block disabled={sending}>
                {sending ? 'Sending…' : 'Send'}
              </Button>
              <Button variant="ghost" size="small" className={styles.back} onClick={showOptions}>
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
              <Dialog.Title className={styles.title}>Login link sent to {email}</Dialog.Title>
              <Dialog.Description className={styles.note}>
                Open the link in that email to log in. It can take a minute to arrive; check your spam folder too.
              </Dialog.Description>
              {resent ? (
                <p className={styles.note} role="status">
                  We sent a new link.
                </p>
              ) : null}
              <div className={styles.row}>
                <Button variant="secondary" onClick={onResend} disabled={sending}>
                  {sending ? 'Sending…' : 'Resend link'}
                </Button>
                <Button onClick={() => onOpenChange(false)}>Ok</Button>
              </div>
              <Button variant="ghost" size="small" className={styles.back} onClick={showOptions}>
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
