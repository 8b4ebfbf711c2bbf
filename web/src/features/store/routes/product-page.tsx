import { useEffect, useId } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { useProduct } from '../api/get-product';
import type { ProductPage as ProductPageView } from '../api/store-keys';
import { GradeCard } from '../components/grade-card';
import { ProductImages } from '../components/product-images';
import { NoPaymentsNotice, ShopLine } from '../components/shop-header';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/store.module.css';
import { isMissing } from './shop-page';
import { track } from '../../../lib/analytics';

function Product({ page }: { page: ProductPageView }) {
  const gradesId = useId();
  const { shop, product, grades } = page;
  useEffect(() => track('Storefront Viewed', { page: 'product', shopId: shop.id }), [shop.id, product.id]);
  return (
    <>
      <PageMeta
        seo={{
          title: `${product.title} · ${shop.shopName}`,
          description: product.display.tagline || product.description.slice(0, 200) || undefined,
          imageUrl: product.images[0]?.url,
        }}
      />
      <ShopLine shop={shop} />
      <div className={styles.productLayout}>
        <ProductImages product={product} />
        <header className={styles.header}>
          <h1 className={pageStyles.title}>{product.title}</h1>
          {product.display.tagline ? <p className={pageStyles.muted}>{product.display.tagline}</p> : null}
          {product.description ? <p className={styles.lede}>{product.description}</p> : null}
        </header>
      </div>
      <NoPaymentsNotice shop={shop} />
      {!product.stocked ? (
        <p className={styles.notice}>
          <strong>This product is no longer sold.</strong> Those who subscribed to it keep their subscriptions.
        </p>
      ) : null}
      <section className={pageStyles.section} aria-labelledby={gradesId}>
        <h2 id={gradesId} className={pageStyles.sectionTitle}>
          Options
        </h2>
        {grades.length ? (
          <div className={styles.grades}>
            {grades.map((grade) => (
              <GradeCard key={grade.id} grade={grade} shop={shop} />
            ))}
          </div>
        ) : (
          <p className={pageStyles.muted}>Not on sale yet: there is nothing to choose from.</p>
        )}
      </section>
    </>
  );
}

/** A product that is private, gone, or never was: the same answer for each, as the API gives. */
export function ProductNotFound() {
  return (
    <>
      <PageMeta seo={{ title: `Product not found · ${APP_NAME}` }} />
      <NotFoundState title="This product is not available">
        <p>It may have been taken down by its shop, or the link is not quite right.</p>
        <StateLinks>
          <Link to="/">Go to the home page</Link>
        </StateLinks>
      </NotFoundState>
    </>
  );
}

/**
 * /product/:productStockId: a product's images, title and description, and its grades side by
 * side, each with its price, what it includes, and "Add to cart" and "Buy now". An unlisted
 * product opens from its link like any other; an unstocked one still shows, with nothing to buy.
 */
export function ProductPage() {
  const { productStockId = '' } = useParams();
  const query = useProduct(productStockId);

  let content;
  if (query.data) content = <Product page={query.data} />;
  else if (isMissing(query.error)) content = <ProductNotFound />;
  else if (query.isError)
    content = (
      <>
        <PageMeta seo={{ title: `Product · ${APP_NAME}` }} />
        <ErrorState
          title="The product could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </>
    );
  else
    content = (
      <>
        <PageMeta seo={{ title: `Product · ${APP_NAME}` }} />
        <PageSpinner label="Loading the product" />
      </>
    );
  return <div className={pageStyles.widePage}>{content}</div>;
}
