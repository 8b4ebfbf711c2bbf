import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { MoreButton } from '../../../components/more-button';
import { Spinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import type { GradeFeed, ProductFeed, StockState } from '../api/merchant-keys';
import { useMyStockedGrades } from '../api/list-my-stocked-grades';
import { useMyStockedProducts } from '../api/list-my-stocked-products';
import { useMyUnstockedGrades } from '../api/list-my-unstocked-grades';
import { useMyUnstockedProducts } from '../api/list-my-unstocked-products';
import { describePrice, formatMoney, stateWords } from '../lib/format';
import { merchantGradePath, merchantProductPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/** A paged list's states, alike for products and grades: loading, failed, empty, its items and "Load more". */
function PagedList<T extends { id: string }>({
  query,
  what,
  empty,
  renderItem,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[]; cursor: string | null }>>;
  /** "products", "grades": for the error's title. */
  what: string;
  empty: string;
  renderItem: (item: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading the ${what}`} />;
  if (query.isError && !query.data) {
    return (
      <ErrorState
        title={`The ${what} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        compact
      />
    );
  }
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  if (!items.length) return <p className={pageStyles.muted}>{empty}</p>;
  return (
    <>
      <ul className={styles.list}>{items.map((item) => renderItem(item))}</ul>
      {query.isFetchNextPageError ? (
        <ErrorState
          title={`More ${what} could not be loaded`}
          error={query.error}
          onRetry={() => void query.fetchNextPage()}
          retrying={query.isFetchingNextPage}
          compact
        />
      ) : (
        <MoreButton query={query} label="Load more" />
      )}
    </>
  );
}

/** One tab of the shop's products: each with its picture, its state, its grades and its lowest price. */
export function ProductList({ userId, state }: { userId: string; state: StockState }) {
  const stocked = useMyStockedProducts(userId, state === 'stocked');
  const unstocked = useMyUnstockedProducts(userId, state === 'unstocked');
  const query: UseInfiniteQueryResult<InfiniteData<ProductFeed>> = state === 'stocked' ? stocked : unstocked;
  return (
    <PagedList
      query={query}
      what="products"
      empty={state === 'stocked' ? 'No products on sale yet: add your first one.' : 'No products taken off sale.'}
      renderItem={(product) => (
        <li key={product.id} className={styles.item}>
          {product.images[0] ? (
            <img className={styles.thumb} src={product.images[0].url} alt="" />
          ) : (
            <span className={styles.thumb} aria-hidden="true" />
          )}
          <span className={styles.itemText}>
            <Link to={merchantProductPath(product.id)} className={styles.itemTitle}>
              {product.title}
            </Link>
            <span className={styles.itemMeta}>
              {stateWords(product)} · {product.gradeCount === 1 ? '1 grade' : `${product.gradeCount} grades`}
            </span>
          </span>
          <span className={styles.itemPrice}>
            {product.priceFrom ? `from ${formatMoney(product.priceFrom)}` : 'Not for sale yet'}
          </span>
        </li>
      )}
    />
  );
}

/** One tab of a product's grades: each with its state and its price. */
export function GradeList({ userId, productStockId, state }: { userId: string; productStockId: string; state: StockState }) {
  const stocked = useMyStockedGrades(userId, productStockId, state === 'stocked');
  const unstocked = useMyUnstockedGrades(userId, productStockId, state === 'unstocked');
  const query: UseInfiniteQueryResult<InfiniteData<GradeFeed>> = state === 'stocked' ? stocked : unstocked;
  return (
    <PagedList
      query={query}
      what="grades"
      empty={
        state === 'stocked'
          ? 'No grades on sale yet: a product is bought through its grades, so add one.'
          : 'No grades taken off sale.'
      }
      renderItem={(grade) => (
        <li key={grade.id} className={styles.item}>
          <span className={styles.itemText}>
            <Link to={merchantGradePath(productStockId, grade.id)} className={styles.itemTitle}>
              {grade.name}
            </Link>
            <span className={styles.itemMeta}>
              {stateWords(grade)}
              {grade.billing.kind === 'subscription' ? ` · plan ${grade.billing.braintreePlanId}` : ''}
            </span>
          </span>
          <span className={styles.itemPrice}>{describePrice(grade.price, grade.billing)}</span>
        </li>
      )}
    />
  );
}
