import type { UseMutationResult } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../lib/form-errors';
import { FormAlert } from './form-alert';
import pageStyles from '../../../components/page.module.css';

/**
 * Whether a product or a grade is on sale, and the one button that changes it. Taking it off
 * sale is undone as easily, so it asks nothing first.
 */
export function SellingSection({
  noun,
  stocked,
  stock,
  unstock,
}: {
  /** "product", "grade". */
  noun: string;
  stocked: boolean;
  stock: UseMutationResult<boolean, Error, void>;
  unstock: UseMutationResult<boolean, Error, void>;
}) {
  const titleId = useId();
  const action = stocked ? unstock : stock;
  const failed = stock.isError ? stock.error : unstock.isError ? unstock.error : null;

  const change = () => {
    if (stock.isPending || unstock.isPending) return;
    stock.reset();
    unstock.reset();
    action.mutate(undefined, {
      onSuccess: () => toast.success(stocked ? `The ${noun} is off sale` : `The ${noun} is on sale again`),
    });
  };

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Selling
      </h2>
      <p className={pageStyles.muted}>
        {stocked
          ? `On sale: customers can buy this ${noun} wherever its visibility lets them see it.`
          : `Not on sale: nobody can buy this ${noun}. Its subscribers keep their subscriptions and still see it.`}
      </p>
      <FormAlert message={failed ? errorMessage(failed) : null} />
      <div className={pageStyles.actions}>
        <Button
          variant={stocked ? 'secondary' : 'primary'}
          onClick={change}
          disabled={action.isPending}
          aria-busy={action.isPending}
        >
          {action.isPending ? 'Saving…' : stocked ? 'Stop selling' : 'Sell again'}
        </Button>
      </div>
    </section>
  );
}
