import { useEffect, useId } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { MoreButton } from '../../../components/more-button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useShop } from '../api/get-shop';
import { useShopProducts } from '../api/list-shop-products';
import type { ShopView } from '../api/store-keys';
import { ProductCard } from '../components/product-card';
import { ShopCartLink } from '../components/cart-links';
import { ShopHeader } from '../components/shop-header';
import { useCurrentUser } from '../../../lib/current-user';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/store.module.css';
import { track } from '../../../lib/analytics';

/** An address that names no shop: an unknown handle or id (404), or one that cannot be either (400). */
export const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

function Products({ shopId, shop }: { shopId: string; shop: ShopView }) {
  const titleId = useId();
  const query = useShopProducts(shopId);
  const products = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (!query.data) {
    return query.isError ? (
      <ErrorState
        title="The products could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    ) : (
      <PageSpinner label="Loading the products" />
    );
  }
  if (!products.length) {
    return (
      <EmptyState title="Nothing on sale yet">
        <p>{shop.shopName} has not put any products in its shop yet. Come back soon.</p>
      </EmptyState>
    );
  }
  return (
    <section className={pageStyles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Products
      </h2>
      <ul className={styles.products}>
        {products.map((product) => (
          <li key={product.id} data-featured={product.display.featured || undefined}>
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
      {query.isFetchNextPageError ? (
        <ErrorState
          title="More products could not be loaded"
          error={query.error}
          onRetry={() => void query.fetchNextPage()}
          retrying={query.isFetchingNextPage}
          compact
        />
      ) : null}
      <MoreButton query={query} label="Load more" className={styles.more} />
    </section>
  );
}

/**
 * /shop/:shopId, by the shop's handle or its id: the shop's name, logo and description, and its
 * listed products (public and stocked), featured first, a page at a time. A shop that cannot
 * take payments yet says so.
 */
export function ShopPage() {
  const { shopId = '' } = useParams();
  const shop = useShop(shopId);
  const { user } = useCurrentUser();
  const viewedShopId = shop.data?.id;
  useEffect(
    () => (viewedShopId ? track('Storefront Viewed', { page: 'shop', shopId: viewedShopId }) : undefined),
    [viewedShopId],
  );

  let content;
  if (shop.data) {
    content = (
      <>
        <PageMeta seo={{ title: `${shop.data.shopName} · ${APP_NAME}`, description: shop.data.description || undefined }} />
        <ShopHeader shop={shop.data} />
        <ShopCartLink userId={user?.userId ?? null} merchantAccountId={shop.data.id} />
        <Products shopId={shopId} shop={shop.data} />
      </>
    );
  } else if (isMissing(shop.error)) {
    content = (
      <>
        <PageMeta seo={{ title: `No such shop · ${APP_NAME}` }} />
        <NotFoundState title="No such shop">
          <p>There is no shop at this address. Check the link you were given.</p>
          <StateLinks>
            <Link to="/">Go to the home page</Link>
          </StateLinks>
        </NotFoundState>
      </>
    );
  } else if (shop.isError) {
    content = (
      <>
        <PageMeta seo={{ title: `Shop · ${APP_NAME}` }} />
        <ErrorState
          title="The shop could not be loaded"
          error={shop.error}
          onRetry={() => void shop.refetch()}
          retrying={shop.isFetching}
        />
      </>
    );
  } else {
    content = (
      <>
        <PageMeta seo={{ title: `Shop · ${APP_NAME}` }} />
        <PageSpinner label="Loading the shop" />
      </>
    );
  }
  return <div className={pageStyles.widePage}>{content}</div>;
}
