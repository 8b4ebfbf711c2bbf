import { type FormEvent, useId, useState } from 'react';
import { createDiscountCodeBodySchema } from '@shared/schemas/discounts';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { useCreateDiscountCode } from '../api/create-discount-code';
import { useDeactivateDiscountCode } from '../api/deactivate-discount-code';
import { useMyDiscountCodes } from '../api/list-my-discount-codes';
import { useMyStockedProducts } from '../api/list-my-stocked-products';
import type { DiscountCodeView } from '../api/merchant-keys';
import { errorMessage, type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { formatMoney } from '../lib/format';
import { FormAlert } from './form-alert';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

const FIELDS = ['code', 'value', 'scope', 'startsAt', 'endsAt', 'maxUses'] as const;
type Field = (typeof FIELDS)[number];

/** "5.00" or "5" → 500; anything else NaN, for the schema to refuse. */
const centsOf = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);
/** A datetime-local value as an instant in the merchant's own zone, or undefined when empty. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** "20% off" or "$5.00 off", and what it is for. */
export function describeCode(code: DiscountCodeView): string {
  const off =
    code.kind === 'percent' ? `${code.value}% off` : `${formatMoney({ amountMinor: code.value, currency: code.currency })} off`;
  const scope =
    code.scope.kind === 'shop'
      ? 'everything'
      : `${code.scope.ids.length} chosen ${code.scope.kind === 'products' ? 'products' : 'grades'}`;
  const subscriptions = code.appliesTo === 'every' ? 'every subscription charge' : 'the first subscription charge';
  return `${off} ${scope} (${subscriptions})${code.oncePerCustomer ? ', once per customer' : ''}`;
}

function CodeForm({ userId, currency }: { userId: string; currency: string }) {
  const create = useCreateDiscountCode(userId);
  const products = useMyStockedProducts(userId);
  const ids = { kind: useId(), scope: useId(), appliesTo: useId() };
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [scope, setScope] = useState<'shop' | 'products'>('shop');
  const [chosen, setChosen] = useState<string[]>([]);
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [oncePerCustomer, setOncePerCustomer] = useState(false);
  const [appliesTo, setAppliesTo] = useState<'first' | 'every'>('first');
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });
  const [created, setCreated] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    setCreated(null);
    const checked = createDiscountCodeBodySchema.safeParse({
      code,
      kind,
      value: kind === 'percent' ? Number(value) : centsOf(value),
      scope: scope === 'shop' ? { kind: 'shop' } : { kind: 'products', ids: chosen },
      startsAt: instantOf(startsAt),
      endsAt: instantOf(endsAt),
      maxUses: maxUses.trim() ? Number(maxUses) : undefined,
      oncePerCustomer,
      appliesTo,
    });
    if (!checked.success) {
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    setErrors({ fields: {} });
    create.mutate(checked.data, {
      onSuccess: (answer) => {
        setCreated(answer.code);
        setCode('');
        setValue('');
      },
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  const productList = products.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <form onSubmit={submit} noValidate aria-label="New discount code">
      <div className={styles.fieldGrid}>
        <TextField
          label="Code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          maxLength={32}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          hint="What customers type in their cart: letters, digits, - or _ (case does not matter)."
          error={errors.fields.code}
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
            <option value="amount">An amount off ({currency})</option>
          </select>
        </div>
        <TextField
          label={kind === 'percent' ? 'Percentage off' : `Amount off (${currency})`}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          inputMode="decimal"
          error={errors.fields.value}
        />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={ids.scope}>
            For
          </label>
          <select
            id={ids.scope}
            className={fieldStyles.control}
            value={scope}
            onChange={(event) => setScope(event.target.value as 'shop' | 'products')}
          >
            <option value="shop">Everything in the shop</option>
            <option value="products">Chosen products</option>
          </select>
        </div>
        {scope === 'products' ? (
          <fieldset className={`${styles.fieldset} ${styles.wide}`}>
            <legend className={styles.legend}>Products it is for</legend>
            {productList.length === 0 ? <p className={pageStyles.muted}>No products on sale yet.</p> : null}
            {productList.map((product) => (
              <label key={product.id} className={styles.checkbox}>
                <input
                  type="checkbox"
                  checked={chosen.includes(product.id)}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked ? [...current, product.id] : current.filter((id) => id !== product.id),
                    )
                  }
                />{' '}
                {product.title}
              </label>
            ))}
            {errors.fields.scope ? <p role="alert">{errors.fields.scope}</p> : null}
          </fieldset>
        ) : null}
        <TextField
          label="Starts"
          type="datetime-local"
          value={startsAt}
          onChange={(event) => setStartsAt(event.target.value)}
          hint="Optional: at once when empty."
          error={errors.fields.startsAt}
        />
        <TextField
          label="Ends"
          type="datetime-local"
          value={endsAt}
          onChange={(event) => setEndsAt(event.target.value)}
          hint="Optional: never when empty."
          error={errors.fields.endsAt}
        />
        <TextField
          label="Number of uses"
          value={maxUses}
          onChange={(event) => setMaxUses(event.target.value)}
          inputMode="numeric"
          hint="Optional: how many paid orders may use it, in all."
          error={errors.fields.maxUses}
        />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={ids.appliesTo}>
            On subscriptions
          </label>
          <select
            id={ids.appliesTo}
            className={fieldStyles.control}
            value={appliesTo}
            onChange={(event) => setAppliesTo(event.target.value as 'first' | 'every')}
          >
            <option value="first">Off the first charge only</option>
            <option value="every">Off every charge</option>
          </select>
        </div>
        <label className={styles.checkbox}>
          <input type="checkbox" checked={oncePerCustomer} onChange={(event) => setOncePerCustomer(event.target.checked)} /> Once
          per customer
        </label>
      </div>
      <FormAlert message={errors.form} />
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
  const deactivate = useDeactivateDiscountCode(userId);
  return (
    <li className={styles.codeRow}>
      <span>
        <strong>{code.code}</strong> · {describeCode(code)}
        <br />
        <span className={pageStyles.muted}>
          {code.maxUses === null ? `${code.usesCount} uses` : `${code.usesCount} of ${code.maxUses} uses`}
          {code.endsAt ? ` · ends ${new Date(code.endsAt).toLocaleString()}` : ''}
          {code.active ? '' : ' · deactivated'}
        </span>
        {deactivate.isError ? <span role="alert"> {errorMessage(deactivate.error)}</span> : null}
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

/**
 * The merchant dashboard's discount codes: a form to create one, and the shop's codes with their
 * paid uses (counted when an order with the code is paid) and a way to stop each.
 */
export function DiscountCodesSection({ userId, currency }: { userId: string; currency: string }) {
  const titleId = useId();
  const codes = useMyDiscountCodes(userId);
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Discount codes
      </h2>
      <CodeForm userId={userId} currency={currency} />
      {codes.data ? (
        codes.data.items.length ? (
          <ul className={styles.codeList} aria-label="Your discount codes">
            {codes.data.items.map((code) => (
              <CodeRow key={code.code} userId={userId} code={code} />
            ))}
          </ul>
        ) : (
          <p className={pageStyles.muted}>No discount codes yet.</p>
        )
      ) : codes.isError ? (
        <FormAlert message={errorMessage(codes.error)} />
      ) : null}
    </section>
  );
}
