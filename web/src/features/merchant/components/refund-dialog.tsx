import { useId, useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { MoneyInput, parseMoneyInput } from '../../../components/money-input';
import { TextArea } from '../../../components/text-field';
import { toast } from '../../../lib/toast';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import { useStoreOrderRefunds } from '../api/list-store-order-refunds';
import type { MerchantOrderRefundsView, RefundOrderBody, RefundView } from '../api/merchant-keys';
import { useRefundStoreOrder } from '../api/refund-store-order';
import { formatDate, formatMoney } from '../lib/format';
import { type FormErrors, formErrors } from '../lib/form-errors';
import { type Choice, ChoiceFieldset } from './choice-fieldset';
import { FormAlert } from './form-alert';
import styles from './merchant.module.css';

const FIELDS = ['amountMinor', 'lineIndexes', 'reason'] as const;
type Field = (typeof FIELDS)[number];
type Scope = 'whole' | 'amount' | 'items';

const STATUS_WORDS: Record<RefundView['status'], string> = {
  succeeded: 'refunded',
  pending: 'under way',
  failed: 'failed',
};

/**
 * Refunding one of the shop's orders: all that is left, an amount, or chosen lines, with a
 * reason the customer reads in their receipt; a refund that returns a subscription's charge may
 * also cancel the subscription. Shows what is left to refund and the refunds so far. The refund
 * names how many refunds the dialog saw, so a double click (or a retry) refunds once.
 */
export function RefundDialog({
  userId,
  invoiceId,
  description,
  onClose,
}: {
  userId: string;
  invoiceId: string;
  /** What was bought, as the sale's row says it. */
  description: string;
  onClose: () => void;
}) {
  const order = useStoreOrderRefunds(userId, invoiceId);
  const refund = useRefundStoreOrder(userId, invoiceId);
  const [scope, setScope] = useState<Scope>('whole');
  const [amount, setAmount] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [reason, setReason] = useState('');
  const [cancelSubscription, setCancelSubscription] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });
  const view = order.data;

  const submit = () => {
    if (refund.isPending || !view) return;
    const body = bodyOf(view, {
      scope,
      amount,
      chosen,
      reason,
      cancelSubscription: cancelSubscription && canCancel(view, scope, chosen),
    });
    if ('problems' in body) {
      setErrors({ fields: body.problems });
      return;
    }
    setErrors({ fields: {} });
    refund.mutate(body, {
      onSuccess: (answer) => {
        toast.success(`${formatMoney(answer.refund.amount)} refunded`);
        onClose();
      },
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  return (
    <FormDialog
      title="Refund order"
      description={description}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Refund"
      pendingLabel="Refunding…"
      pending={refund.isPending}
      waitingLabel={view ? null : order.isError ? 'The order could not be loaded' : 'Loading the order…'}
    >
      {view ? (
        <RefundFields
          view={view}
          scope={scope}
          onScope={setScope}
          amount={amount}
          onAmount={setAmount}
          chosen={chosen}
          onChosen={setChosen}
          reason={reason}
          onReason={setReason}
          cancelSubscription={cancelSubscription}
          onCancelSubscription={setCancelSubscription}
          errors={errors}
        />
      ) : order.isError ? (
        <FormAlert message="The order could not be loaded. Close this and try again." />
      ) : (
        <p className={pageStyles.muted}>Loading the order…</p>
      )}
      <FormAlert message={errors.form} />
    </FormDialog>
  );
}

function RefundFields({
  view,
  scope,
  onScope,
  amount,
  onAmount,
  chosen,
  onChosen,
  reason,
  onReason,
  cancelSubscription,
  onCancelSubscription,
  errors,
}: {
  view: MerchantOrderRefundsView;
  scope: Scope;
  onScope: (scope: Scope) => void;
  amount: string;
  onAmount: (amount: string) => void;
  chosen: ReadonlySet<number>;
  onChosen: (chosen: ReadonlySet<number>) => void;
  reason: string;
  onReason: (reason: string) => void;
  cancelSubscription: boolean;
  onCancelSubscription: (cancel: boolean) => void;
  errors: FormErrors<Field>;
}) {
  const refundsTitleId = useId();
  const nothingLeft = view.left.amountMinor === 0;
  const openLines = view.lines.filter((line) => !line.refunded);
  const scopes: readonly Choice<Scope>[] = [
    {
      value: 'whole',
      name: 'All that is left',
      detail: `${formatMoney(view.left)}, every line not refunded yet.`,
      disabled: nothingLeft,
    },
    { value: 'amount', name: 'An amount', detail: 'Part of what was paid.', disabled: nothingLeft },
    { value: 'items', name: 'Chosen items', detail: 'Each line chosen is refunded whole.', disabled: openLines.length === 0 },
  ];
  const toggle = (index: number) => {
    const next = new Set(chosen);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    onChosen(next);
  };
  return (
    <>
      <p>
        <strong>Left to refund: {formatMoney(view.left)}</strong> of {formatMoney(view.total)} paid on{' '}
        <time dateTime={view.paidAt}>{formatDate(view.paidAt)}</time>.
      </p>
      {nothingLeft ? null : (
        <>
          <ChoiceFieldset legend="What to refund" choices={scopes} value={scope} onChange={onScope} />
          {scope === 'amount' ? (
            <MoneyInput
              label="Amount"
              currency={view.total.currency}
              value={amount}
              onChange={onAmount}
              hint={`At most ${formatMoney(view.left)}.`}
              error={errors.fields.amountMinor}
            />
          ) : null}
          {scope === 'items' ? (
            <fieldset className={styles.fieldset}>
              <legend className={styles.legend}>Items</legend>
              {view.lines.map((line) => (
                <label key={line.index} className={styles.checkbox}>
                  <input
                    type="checkbox"
                    checked={chosen.has(line.index)}
                    disabled={line.refunded}
                    onChange={() => toggle(line.index)}
                  />
                  <span>
                    {line.description}
                    {line.quantity > 1 ? ` × ${line.quantity}` : ''}: {formatMoney(line.amount)}
                    {line.billing === 'subscription' ? ' (subscription)' : ''}
                    {line.refunded ? ', refunded' : ''}
                  </span>
                </label>
              ))}
              {errors.fields.lineIndexes ? (
                <p className={fieldStyles.error} role="alert">
                  {errors.fields.lineIndexes}
                </p>
              ) : null}
            </fieldset>
          ) : null}
          <TextArea
            label="Reason"
            hint="Your customer reads it in the refund's receipt."
            value={reason}
            onChange={(event) => onReason(event.target.value)}
            maxLength={500}
            rows={2}
            error={errors.fields.reason}
          />
          {canCancel(view, scope, chosen) ? (
            <label className={styles.checkbox}>
              <input
                type="checkbox"
                checked={cancelSubscription}
                onChange={(event) => onCancelSubscription(event.target.checked)}
              />
              <span>Also cancel the subscription: nothing more is charged</span>
            </label>
          ) : null}
        </>
      )}
      {view.refunds.length > 0 ? (
        <section aria-labelledby={refundsTitleId}>
          <h3 id={refundsTitleId} className={styles.legend}>
            Refunds so far
          </h3>
          <ul className={styles.orderRefunds}>
            {view.refunds.map((entry) => (
              <li key={entry.refundId}>
                {formatMoney(entry.amount)} {STATUS_WORDS[entry.status]},{' '}
                <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>: {entry.reason}
                {entry.failure ? ` (${entry.failure})` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** A subscription may be canceled with a refund that returns its charge: all that is left, or its line chosen. */
function canCancel(view: MerchantOrderRefundsView, scope: Scope, chosen: ReadonlySet<number>): boolean {
  const open = view.lines.filter((line) => line.billing === 'subscription' && !line.refunded);
  if (scope === 'whole') return open.length > 0;
  if (scope === 'items') return open.some((line) => chosen.has(line.index));
  return false;
}

/** The request, or what to fix first (the API checks the same, and what is left, again). */
function bodyOf(
  view: MerchantOrderRefundsView,
  form: { scope: Scope; amount: string; chosen: ReadonlySet<number>; reason: string; cancelSubscription: boolean },
): RefundOrderBody | { problems: Partial<Record<Field, string>> } {
  const problems: Partial<Record<Field, string>> = {};
  const reason = form.reason.trim();
  if (!reason) problems.reason = 'Say why the order is refunded';
  let amountMinor: number | null = null;
  if (form.scope === 'amount') {
    amountMinor = parseMoneyInput(form.amount);
    if (amountMinor === null || amountMinor === 0) problems.amountMinor = 'Give the amount as a number, such as 9.50';
    else if (amountMinor > view.left.amountMinor) problems.amountMinor = `At most ${formatMoney(view.left)} is left to refund`;
  }
  if (form.scope === 'items' && form.chosen.size === 0) problems.lineIndexes = 'Choose the items to refund';
  if (Object.keys(problems).length > 0) return { problems };
  return {
    reason,
    knownRefunds: view.refunds.length,
    ...(form.scope === 'amount' && amountMinor !== null ? { amountMinor } : {}),
    ...(form.scope === 'items' ? { lineIndexes: [...form.chosen].sort((a, b) => a - b) } : {}),
    ...(form.cancelSubscription ? { cancelSubscription: true } : {}),
  };
}
