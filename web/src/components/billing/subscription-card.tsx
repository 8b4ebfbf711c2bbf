import { Fragment, type ReactNode, useEffect, useId, useRef } from 'react';
import type { SubscriptionStatus, SubscriptionView } from '@shared/schemas/subscriptions';
import { Button } from '../button';
import factsStyles from '../facts.module.css';
import noticeStyles from '../notice.module.css';
import pageStyles from '../page.module.css';
import styles from './subscription-card.module.css';

/** Statuses whose card can still be replaced and which can still be canceled (the API refuses the others). */
const RUNNING = new Set<SubscriptionStatus>(['Pending', 'Active', 'Past Due']);

/** Whether the subscription still runs: its card can be replaced, and it can be canceled. */
export function isRunning(status: SubscriptionStatus): boolean {
  return RUNNING.has(status);
}

const STATUS_WORDS: Readonly<Record<SubscriptionStatus, string>> = {
  Pending: 'Pending',
  Active: 'Active',
  'Past Due': 'Past due',
  Canceled: 'Canceled',
  Expired: 'Expired',
};

/** The badge's colour, which only repeats its words. */
const TONES: Partial<Record<SubscriptionStatus, string>> = {
  Active: 'positive',
  'Past Due': 'negative',
  Pending: 'warning',
};

/** "Visa ending 1111, expires 12/2030". */
function describeCard(card: SubscriptionView['paymentMethod']): string {
  return `${card.cardType} ending ${card.last4}, expires ${card.expirationDate}`;
}

/** A line of the card's facts: "Plan" and "Pro". */
interface SubscriptionFact {
  term: string;
  value: ReactNode;
}

/**
 * One subscription as its subscriber manages it, whatever is subscribed to (the Pro plan, a
 * product of a shop): its title, what needs the reader first (a failed payment, in an alert),
 * its status, price and next charge, the card it is charged to, and while it still runs the
 * ways to replace that card and to cancel. The feature says what differs: the words of the
 * price and the next charge, facts of its own, an area of its own (a plan's limits, add-ons)
 * and actions of its own; it opens its dialogs on `onUpdateCard` and `onCancel`.
 *
 * The title takes focus (tabIndex -1): `useFocusCardAfterDialog` puts it there when a dialog
 * took away the button that opened it.
 */
export function SubscriptionCard({
  subscriptionId,
  as: Element = 'article',
  headingLevel = 3,
  title,
  byline,
  alert,
  status,
  facts = [],
  price,
  nextCharge,
  paymentMethod,
  children,
  actions,
  onUpdateCard,
  onCancel,
}: {
  subscriptionId: string;
  /** An article among a list of subscriptions; a section (a region) when it is the page's one plan. */
  as?: 'article' | 'section';
  /** The title's level (the card's own headings are one below). */
  headingLevel?: 2 | 3;
  title: ReactNode;
  /** A line under the title: where it is from. */
  byline?: ReactNode;
  /** What needs the reader first (the last payment failed): said in an alert under the title. */
  alert?: ReactNode;
  status: SubscriptionStatus;
  /** The feature's own facts, first ("Plan"). */
  facts?: readonly SubscriptionFact[];
  /** "$12.00 a month". */
  price: ReactNode;
  /** The next charge, or why there is none. */
  nextCharge: ReactNode;
  paymentMethod: SubscriptionView['paymentMethod'];
  /** The feature's own area under the facts: a plan's limits, add-ons. */
  children?: ReactNode;
  /** The feature's own actions while the subscription runs, before Cancel subscription. */
  actions?: ReactNode;
  onUpdateCard: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const cardTitleId = useId();
  const running = isRunning(status);
  const Title = headingLevel === 2 ? 'h2' : 'h3';
  const SectionTitle = headingLevel === 2 ? 'h3' : 'h4';
  return (
    <Element className={pageStyles.card} aria-labelledby={titleId} data-subscription-id={subscriptionId}>
      <div className={styles.header}>
        <Title id={titleId} className={styles.title} tabIndex={-1}>
          {title}
        </Title>
        {byline ? <p className={pageStyles.muted}>{byline}</p> : null}
      </div>
      {alert ? (
        <div className={noticeStyles.banner} role="alert">
          <p>{alert}</p>
        </div>
      ) : null}
      <dl className={factsStyles.facts}>
        {facts.map(({ term, value }) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        <dt>Status</dt>
        <dd>
          <span className={styles.badge} data-tone={TONES[status]}>
            {STATUS_WORDS[status]}
          </span>
        </dd>
        <dt>Price</dt>
        <dd>{price}</dd>
        <dt>Next charge</dt>
        <dd>{nextCharge}</dd>
      </dl>
      {children}
      <section className={pageStyles.section} aria-labelledby={cardTitleId}>
        <SectionTitle id={cardTitleId} className={pageStyles.sectionTitle}>
          Card
        </SectionTitle>
        <div className={styles.paymentMethod}>
          <p>{describeCard(paymentMethod)}</p>
          {running ? (
            <Button variant={status === 'Past Due' ? 'primary' : 'secondary'} onClick={onUpdateCard}>
              Update card
            </Button>
          ) : null}
        </div>
      </section>
      {running ? (
        <div className={pageStyles.actions}>
          {actions}
          <Button variant="ghost" onClick={onCancel}>
            Cancel subscription
          </Button>
        </div>
      ) : null}
    </Element>
  );
}

/**
 * For the page that opens a card's dialogs, with the id of the subscription whose dialog is open
 * (null while none is). A dialog gives focus back to the button that opened it, unless what it
 * did took that button away (canceled: no more Cancel; an add-on removed): focus then goes to
 * the subscription's title rather than the page's top. After the dialog's own return of focus,
 * which it makes in a timeout of its own.
 */
export function useFocusCardAfterDialog(openFor: string | null): void {
  const lastOpened = useRef<string | null>(null);
  useEffect(() => {
    if (openFor) {
      lastOpened.current = openFor;
      return;
    }
    const subscriptionId = lastOpened.current;
    if (!subscriptionId) return;
    const timer = window.setTimeout(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const card = document.querySelector(`[data-subscription-id="${CSS.escape(subscriptionId)}"]`);
      const titleId = card?.getAttribute('aria-labelledby');
      if (titleId) document.getElementById(titleId)?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [openFor]);
}
