import { DiscountCodeField } from '../../../components/billing/discount-code-field';
import type { StoreInvoiceView } from '../api/store-keys';
import { formatMoney } from '../lib/format';

/** The cart's discount code, saying when a code on a subscription line applies again. */
export function CartDiscountCodeField({
  invoice,
  ...field
}: {
  invoice: StoreInvoiceView;
  applying: boolean;
  problem: string | null;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const { discount } = invoice;
  const onSubscription = invoice.lines.some((line) => line.billing === 'subscription' && line.discount.amountMinor > 0);
  const when = !onSubscription
    ? '.'
    : discount?.appliesTo === 'every'
      ? ', and on every subscription charge after.'
      : ' (on the first subscription charge only).';
  return (
    <DiscountCodeField
      {...field}
      applied={discount ? { code: discount.code, saving: formatMoney(discount.saving), when } : null}
    />
  );
}
