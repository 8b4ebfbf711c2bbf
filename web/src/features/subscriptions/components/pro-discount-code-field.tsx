import { DiscountCodeField } from '../../../components/billing/discount-code-field';
import type { InvoiceView } from '../api/subscription-keys';
import { formatMoney } from '../lib/format';

/** The Pro checkout's discount code, saying whether it takes off the first charge or every one. */
export function ProDiscountCodeField({
  invoice,
  ...field
}: {
  invoice: InvoiceView;
  applying: boolean;
  problem: string | null;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const { discount } = invoice;
  const when = discount?.appliesTo === 'every' ? ' on every charge.' : ' on your first charge.';
  return (
    <DiscountCodeField
      {...field}
      applied={discount ? { code: discount.code, saving: formatMoney(discount.saving), when } : null}
    />
  );
}
