import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { isRecentLoginRequired, useDeleteAccount } from '../api/delete-account';
import { type ProAtDeletion, type ShopAtDeletion, useDeletionConsequences } from '../api/deletion-consequences';
import styles from './account.module.css';
import { TextField } from '../../../components/text-field';

/** 'March 31, 2026' for a day given as YYYY-MM-DD (a calendar day: no time zone moves it). */
function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** What deleting does to a Pro plan that gives Pro now: canceled at once, paid time not refunded. */
function proLine(pro: ProAtDeletion): string {
  const paid = pro.paidThroughDate ? ` (paid to ${formatDay(pro.paidThroughDate)})` : '';
  return pro.renews
    ? `Your Pro plan is canceled: nothing more is charged, Pro ends with your account, and the time already paid for${paid} is not refunded.`
    : `Your canceled Pro plan ends with your account: the time already paid for${paid} is not refunded.`;
}

const subscribers = (count: number) => `${count} subscriber${count === 1 ? '' : 's'}`;

/**
 * Asks the user to type their username before deleting, after saying what happens to their Pro
 * plan and their shop. A shop that still bills subscribers makes the server refuse, so the
 * dialog says what to do first and asks for nothing. A login older than 15 minutes is refused
 * by the server: its message is shown with a way to log in again.
 */
export function DeleteAccountDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const loginModal = useLoginModal();
  const remove = useDeleteAccount({
    onDeleted: () => {
      toast.success('Your account was deleted');
      void navigate('/', { replace: true });
    },
  });

  const consequences = useDeletionConsequences();
  const shop: ShopAtDeletion | null | undefined = consequences.shop.data;
  const shopBlocks = Boolean(shop && shop.billingSubscriptions > 0);
  // Until the shop is known, deleting could still be refused: the field waits (an unreadable shop does not).
  const shopKnown = !consequences.shop.isPending;

  const logInAgain = () => {
    onClose();
    loginModal.open();
  };

  return (
    <ConfirmDialog
      title="Delete your account?"
      description={<>This deletes @{username} for good and logs you out on every device.</>}
      onClose={onClose}
      confirmLabel="Delete account"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate()}
      pending={remove.isPending}
      ready={shopKnown && !shopBlocks && typed.trim() === username}
      error={
        remove.isError ? (
          <>
            <p>{remove.error.message || 'Deleting failed. Try again.'}</p>
            {isRecentLoginRequired(remove.error) ? (
              <Button size="small" onClick={logInAgain}>
                Log in again
              </Button>
            ) : null}
          </>
        ) : null
      }
      errorClassName={styles.alert}
      confirmClassName={styles.dangerButton}
    >
      {consequences.pro.isPending || consequences.shop.isPending ? (
        <p role="status">Checking your Pro plan and your shop…</p>
      ) : null}
      {consequences.pro.data || (shop && !shopBlocks) ? (
        <ul aria-label="What happens to your plan and shop">
          {consequences.pro.data ? <li>{proLine(consequences.pro.data)}</li> : null}
          {shop && !shopBlocks ? (
            <li>Your shop “{shop.shopName}” closes with your account: it is no longer shown to anyone and sells nothing.</li>
          ) : null}
        </ul>
      ) : null}
      {shop && shopBlocks ? (
        <div role="alert" className={styles.alert}>
          <p>
            Your shop “{shop.shopName}” still bills {subscribers(shop.billingSubscriptions)}, so your account cannot be deleted
            yet.
          </p>
          <p>Cancel their subscriptions in your shop’s Braintree account first, then come back to delete your account.</p>
        </div>
      ) : shopKnown ? (
        <TextField
          label={`Type ${username} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      ) : null}
    </ConfirmDialog>
  );
}
