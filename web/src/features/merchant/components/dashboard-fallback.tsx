import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { isNotFound } from '../lib/form-errors';
import { MERCHANT_PATH } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';

/** What a dashboard query tells its fallback: whether it failed and why, and how to try again. */
export interface DashboardQuery {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A product's or a grade's page before its dashboard is here: loading, not in the merchant's shop
 * (another shop's, or a mistyped link), or failed with a way to try again.
 */
export function DashboardFallback({ noun, query }: { noun: 'product' | 'grade'; query: DashboardQuery }) {
  const Noun = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  const seo = { title: `${Noun} · ${APP_NAME}` };
  if (query.isError && isNotFound(query.error)) {
    return (
      <>
        <PageMeta seo={seo} />
        <NotFoundState title={`No such ${noun} in your shop`}>
          <p>It may have been another shop’s, or the link may be mistyped.</p>
          <StateLinks>
            <Link to={MERCHANT_PATH}>Go to your shop</Link>
          </StateLinks>
        </NotFoundState>
      </>
    );
  }
  return (
    <>
      <PageMeta seo={seo} />
      {query.isError ? (
        <>
          <h1 className={pageStyles.title}>{Noun}</h1>
          <ErrorState
            title={`This ${noun} could not be loaded`}
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </>
      ) : (
        <PageSpinner label={`Loading the ${noun}`} />
      )}
    </>
  );
}
