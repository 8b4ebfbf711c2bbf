import { useEffect, useId } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { useProductGrade } from '../api/get-product-grade';
import type { GradePage as GradePageView } from '../api/store-keys';
import { GradeDetails } from '../components/grade-card';
import { NoPaymentsNotice, ShopLine } from '../components/shop-header';
import { productPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/store.module.css';
import { ProductNotFound } from './product-page';
import { isMissing } from './shop-page';
import { track } from '../../../lib/analytics';

function Grade({ page }: { page: GradePageView }) {
  const titleId = useId();
  const { shop, product, grade } = page;
  useEffect(() => track('Storefront Viewed', { page: 'grade', shopId: shop.id }), [shop.id, grade.id]);
  return (
    <>
      <PageMeta
        seo={{
          title: `${product.title}: ${grade.name} · ${shop.shopName}`,
          description: grade.description.slice(0, 200) || product.display.tagline || undefined,
          imageUrl: product.images[0]?.url,
        }}
      />
      <ShopLine shop={shop} />
      <header className={styles.header}>
        <p className={pageStyles.muted}>
          <Link to={productPath(product.id)}>{product.title}</Link>
        </p>
        <div className={styles.gradeHeader}>
          <h1 id={titleId} className={pageStyles.title}>
            {grade.name}
          </h1>
          {grade.display.badge ? (
            <span className={styles.badge} data-tone="positive">
              {grade.display.badge}
            </span>
          ) : null}
        </div>
      </header>
      <NoPaymentsNotice shop={shop} />
      <div className={styles.grade} data-highlight={grade.display.highlighted || undefined}>
        <GradeDetails grade={grade} shop={shop} describedBy={titleId} />
      </div>
      <p className={pageStyles.muted}>
        <Link to={productPath(product.id)}>See every option of {product.title}</Link>
      </p>
    </>
  );
}

/** /product/:productStockId/grade/:productStockGradeId: one grade on a page of its own, to link to. */
export function GradePage() {
  const { productStockId = '', productStockGradeId = '' } = useParams();
  const query = useProductGrade(productStockId, productStockGradeId);

  let content;
  if (query.data) content = <Grade page={query.data} />;
  else if (isMissing(query.error)) content = <ProductNotFound />;
  else if (query.isError)
    content = (
      <>
        <PageMeta seo={{ title: `Product · ${APP_NAME}` }} />
        <ErrorState
          title="This option could not be loaded"
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
        <PageSpinner label="Loading" />
      </>
    );
  return <div className={pageStyles.page}>{content}</div>;
}
