import { type FormEvent, useId, useState } from 'react';
import { APP_NAME } from '@shared/constants';
import { refundProChargeBodySchema } from '@shared/schemas/pro-refunds';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { TextField } from '../../../components/text-field';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useProPaymentsOfPerson } from '../api/list-pro-payments-of-person';
import type { ProChargeView, ProPaymentsView, ProRefundView } from '../api/pro-refund-keys';
import { useRefundProCharge } from '../api/refund-pro-charge';
import { formatDate, formatMoney } from '../lib/format';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/subscriptions.module.css';

/** "5.00" or "5" → 500; anything else NaN, for the schema to refuse. */
const centsOf = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);

/** "$4.00 refunded on Nov 27, 2026: Outage" (or voided, failed, under way). */
function describeRefund(refund: ProRefundView): string {
  const how =
    refund.status === 'failed'
      ? `refund refused (${refund.failure ?? 'no reason given'})`
      : refund.status === 'pending'
        ? 'refund under way'
        : refund.operation === 'void'
          ? 'voided'
          : 'refunded';
  const when = refund.completedAt ? ` on ${formatDate(refund.completedAt)}` : '';
  return `${formatMoney(refund.amount)} ${how}${when}: ${refund.reason}${refund.subscriptionCanceled ? ' (subscription canceled)' : ''}`;
}

function RefundForm({
  userId,
  person,
  charge,
  canCancel,
}: {
  userId: string;
  person: string;
  charge: ProChargeView;
  canCancel: boolean;
}) {
  const refund = useRefundProCharge(userId, person);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [cancelSubscription, setCancelSubscription] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ amountMinor?: string; reason?: string }>({});
  const [done, setDone] = useState<string | null>(null);
  const what = `${charge.payment.description}, ${formatDate(charge.payment.chargedAt)}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (refund.isPending) return;
    setDone(null);
    const checked = refundProChargeBodySchema.safeParse({
      amountMinor: amount.trim() ? centsOf(amount) : undefined,
      reason,
      cancelSubscription: canCancel && cancelSubscription ? true : undefined,
      // The refunds this screen knew of: a second click of the same refund is the same refund.
      knownRefunds: charge.refundsAsked.length,
    });
    if (!checked.success) {
      const errors: { amountMinor?: string; reason?: string } = {};
      for (const issue of checked.error.issues) errors[issue.path[0] as 'amountMinor' | 'reason'] ??= issue.message;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    refund.mutate(
      { transactionId: charge.payment.transactionId, body: checked.data },
      {
        onSuccess: (answer) => {
          setDone(`${describeRefund(answer.refund)}.`);
          setAmount('');
          setReason('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Refund ${what}`}>
      <div className={styles.fieldGrid}>
        <TextField
          label="Amount to refund (USD)"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          inputMode="decimal"
          hint={`Empty: all that is left (${formatMoney(charge.left)}).`}
          error={fieldErrors.amountMinor}
        />
        <TextField
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          hint="The person reads it on their receipt."
          error={fieldErrors.reason}
        />
        {canCancel ? (
          <label>
            <input
              type="checkbox"
              checked={cancelSubscription}
              onChange={(event) => setCancelSubscription(event.target.checked)}
            />{' '}
            Also cancel their subscription
          </label>
        ) : null}
      </div>
      {refund.isError ? <p role="alert">{refund.error.message}</p> : null}
      {done ? (
        <p role="status" className={pageStyles.muted}>
          {done}
        </p>
      ) : null}
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={refund.isPending} aria-busy={refund.isPending}>
          {refund.isPending ? 'Refunding…' : 'Refund'}
        </Button>
      </div>
    </form>
  );
}

function Charges({ userId, person, found }: { userId: string; person: string; found: ProPaymentsView }) {
  const titleId = useId();
  const live = found.subscription !== null && ['Active', 'Pending', 'Past Due'].includes(found.subscription.status);
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        {found.person.username}
        {found.person.email ? ` · ${found.person.email}` : ''}
      </h2>
      <p className={pageStyles.muted}>
        {found.subscription
          ? `Pro subscription: ${found.subscription.status}${found.subscription.paidThroughDate ? `, paid through ${found.subscription.paidThroughDate}` : ''}.`
          : 'No Pro subscription.'}
      </p>
      {found.charges.length === 0 ? (
        <p className={pageStyles.muted}>No Pro charges.</p>
      ) : (
        <ul className={styles.codeList} aria-label="Pro charges">
          {found.charges.map((charge) => (
            <li key={charge.payment.transactionId} aria-label={`${charge.payment.description}, ${formatDate(charge.payment.chargedAt)}`}>
              <strong>{formatMoney(charge.payment.amount)}</strong> · {charge.payment.description} ·{' '}
              {formatDate(charge.payment.chargedAt)}
              <br />
              <span className={pageStyles.muted}>
                Refunded {formatMoney(charge.refunded)} · {formatMoney(charge.left)} left · reference {charge.payment.transactionId}
              </span>
              {charge.refundsAsked.length ? (
                <ul aria-label="Refunds asked">
                  {charge.refundsAsked.map((refund) => (
                    <li key={refund.refundId}>{describeRefund(refund)}</li>
                  ))}
                </ul>
              ) : null}
              {charge.left.amountMinor > 0 ? (
                <RefundForm
                  userId={userId}
                  person={person}
                  charge={charge}
                  canCancel={live && charge.subscriptionId === found.subscription?.subscriptionId}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /pro-refunds : a superuser finds a person's Pro charges and refunds one, whole or in part. */
export function ProRefundsPage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const isSuperUser = user?.isSuperUser === true;
  const [typed, setTyped] = useState('');
  const [person, setPerson] = useState('');
  const found = useProPaymentsOfPerson(user?.userId ?? '', isSuperUser ? person : '');

  let content;
  if (userPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to refund Pro charges">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  else if (!isSuperUser)
    content = <EmptyState title="This page is for superusers">Only the platform's superusers refund Pro charges.</EmptyState>;
  else
    content = (
      <>
        <section className={pageStyles.card}>
          <form
            role="search"
            aria-label="Find a person"
            onSubmit={(event) => {
              event.preventDefault();
              setPerson(typed.trim());
            }}
          >
            <TextField label="Username or email" value={typed} onChange={(event) => setTyped(event.target.value)} />
            <div className={pageStyles.actions}>
              <Button type="submit">Find</Button>
            </div>
          </form>
        </section>
        {person === '' ? null : found.isPending ? (
          <PageSpinner label="Looking for their charges" />
        ) : found.isError ? (
          <ErrorState title="Their charges could not be found" error={found.error} onRetry={() => void found.refetch()} />
        ) : (
          <Charges userId={user.userId} person={person} found={found.data} />
        )}
      </>
    );

  return (
    <>
      <PageMeta seo={{ title: `Pro refunds · ${APP_NAME}` }} />
      <div className={pageStyles.widePage}>
        <header className={pageStyles.header}>
          <h1 className={pageStyles.title}>Pro refunds</h1>
        </header>
        {content}
      </div>
    </>
  );
}
