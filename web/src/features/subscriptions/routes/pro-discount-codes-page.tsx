import { type FormEvent, useId, useState } from 'react';
import { APP_NAME } from '@shared/constants';
import { createProDiscountCodeBodySchema } from '@shared/schemas/discounts';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { TextField } from '../../../components/text-field';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useCreateProDiscountCode } from '../api/create-pro-discount-code';
import { useDeactivateProDiscountCode } from '../api/deactivate-pro-discount-code';
import { useProDiscountCodes } from '../api/list-pro-discount-codes';
import type { DiscountCodeView } from '../api/pro-discount-code-keys';
import { formatMoney } from '../lib/format';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/subscriptions.module.css';

type Field = 'code' | 'value' | 'startsAt' | 'endsAt' | 'maxUses';

/** "5.00" or "5" → 500; anything else NaN, for the schema to refuse. */
const centsOf = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);
/** A datetime-local value as an instant in the superuser's own zone, or undefined when empty. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** "20% off every charge, once per person". */
export function describeProCode(code: DiscountCodeView): string {
  const off =
    code.kind === 'percent' ? `${code.value}% off` : `${formatMoney({ amountMinor: code.value, currency: code.currency })} off`;
  const charges = code.appliesTo === 'every' ? 'every charge' : 'the first charge';
  return `${off} ${charges}${code.oncePerCustomer ? ', once per person' : ''}`;
}

function CodeForm({ userId }: { userId: string }) {
  const create = useCreateProDiscountCode(userId);
  const ids = { kind: useId(), appliesTo: useId() };
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [oncePerCustomer, setOncePerCustomer] = useState(false);
  const [appliesTo, setAppliesTo] = useState<'first' | 'every'>('first');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [created, setCreated] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    setCreated(null);
    const checked = createProDiscountCodeBodySchema.safeParse({
      code,
      kind,
      value: kind === 'percent' ? Number(value) : centsOf(value),
      startsAt: instantOf(startsAt),
      endsAt: instantOf(endsAt),
      maxUses: maxUses.trim() ? Number(maxUses) : undefined,
      oncePerCustomer,
      appliesTo,
    });
    if (!checked.success) {
      const errors: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) errors[issue.path[0] as Field] ??= issue.message;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    create.mutate(checked.data, {
      onSuccess: (answer) => {
        setCreated(answer.code);
        setCode('');
        setValue('');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New Pro discount code">
      <div className={styles.fieldGrid}>
        <TextField
          label="Code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          maxLength={32}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          hint="What people type at checkout: letters, digits, - or _ (case does not matter)."
          error={fieldErrors.code}
        />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={ids.kind}>
            Kind of discount
          </label>
          <select
            id={ids.kind}
            className={fieldStyles.control}
            value={kind}
            onChange={(event) => setKind(event.target.value as 'percent' | 'amount')}
          >
            <option value="percent">A percentage off</option>
            <option value="amount">An amount off (USD)</option>
          </select>
        </div>
        <TextField
          label={kind === 'percent' ? 'Percentage off' : 'Amount off (USD)'}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          inputMode="decimal"
          error={fieldErrors.value}
        />
        <TextField
          label="Starts"
          type="datetime-local"
          value={startsAt}
          onChange={(event) => setStartsAt(event.target.value)}
          hint="Optional: at once when empty."
          error={fieldErrors.startsAt}
        />
        <TextField
          label="Ends"
          type="datetime-local"
          value={endsAt}
          onChange={(event) => setEndsAt(event.target.value)}
          hint="Optional: never when empty."
          error={fieldErrors.endsAt}
        />
        <TextField
          label="Number of uses"
          value={maxUses}
          onChange={(event) => setMaxUses(event.target.value)}
          inputMode="numeric"
          hint="Optional: how many paid subscriptions may use it, in all."
          error={fieldErrors.maxUses}
        />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={ids.appliesTo}>
            Applies to
          </label>
          <select
            id={ids.appliesTo}
            className={fieldStyles.control}
            value={appliesTo}
            onChange={(event) => setAppliesTo(event.target.value as 'first' | 'every')}
          >
            <option value="first">The first charge only</option>
            <option value="every">Every charge</option>
          </select>
        </div>
        <label>
          <input type="checkbox" checked={oncePerCustomer} onChange={(event) => setOncePerCustomer(event.target.checked)} /> Once
          per person
        </label>
      </div>
      {create.isError ? <p role="alert">{create.error.message}</p> : null}
      {created ? (
        <p role="status" className={pageStyles.muted}>
          Code {created} created.
        </p>
      ) : null}
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create code'}
        </Button>
      </div>
    </form>
  );
}

function CodeRow({ userId, code }: { userId: string; code: DiscountCodeView }) {
  const deactivate = useDeactivateProDiscountCode(userId);
  return (
    <li className={styles.codeRow} aria-label={code.code}>
      <span>
        <strong>{code.code}</strong> · {describeProCode(code)}
        <br />
        <span className={pageStyles.muted}>
          {code.maxUses === null ? `${code.usesCount} uses` : `${code.usesCount} of ${code.maxUses} uses`}
          {code.startsAt ? ` · starts ${new Date(code.startsAt).toLocaleString()}` : ''}
          {code.endsAt ? ` · ends ${new Date(code.endsAt).toLocaleString()}` : ''}
          {code.active ? '' : ' · deactivated'}
        </span>
        {deactivate.isError ? <span role="alert"> {deactivate.error.message}</span> : null}
      </span>
      {code.active ? (
        <Button
          variant="secondary"
          onClick={() => deactivate.mutate(code.code)}
          disabled={deactivate.isPending}
          aria-label={`Deactivate ${code.code}`}
        >
          Deactivate
        </Button>
      ) : null}
    </li>
  );
}

/** /pro-codes : the Pro plan's discount codes, for superusers to create, watch and deactivate. */
export function ProDiscountCodesPage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const isSuperUser = user?.isSuperUser === true;
  const codes = useProDiscountCodes(user?.userId ?? '', isSuperUser);
  const listTitleId = useId();

  let content;
  if (userPending) content = <PageSpinner label="Loading the codes" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to manage Pro codes">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  else if (!isSuperUser)
    content = (
      <EmptyState title="This page is for superusers">Only the platform's superusers manage the Pro plan's codes.</EmptyState>
    );
  else
    content = (
      <>
        <section className={pageStyles.card}>
          <CodeForm userId={user.userId} />
        </section>
        <section className={pageStyles.card} aria-labelledby={listTitleId}>
          <h2 id={listTitleId} className={pageStyles.sectionTitle}>
            Codes
          </h2>
          {codes.isPending ? (
            <PageSpinner label="Loading the codes" />
          ) : codes.isError ? (
            <ErrorState title="The codes could not be loaded" error={codes.error} onRetry={() => void codes.refetch()} />
          ) : codes.data.items.length === 0 ? (
            <p className={pageStyles.muted}>No Pro codes yet.</p>
          ) : (
            <ul className={styles.codeList} aria-label="Pro discount codes">
              {codes.data.items.map((code) => (
                <CodeRow key={code.code} userId={user.userId} code={code} />
              ))}
            </ul>
          )}
        </section>
      </>
    );

  return (
    <>
      <PageMeta seo={{ title: `Pro discount codes · ${APP_NAME}` }} />
      <div className={pageStyles.widePage}>
        <header className={pageStyles.header}>
          <h1 className={pageStyles.title}>Pro discount codes</h1>
        </header>
        {content}
      </div>
    </>
  );
}
