import { useSearchParams } from 'react-router';
import { APP_NAME } from '@shared/constants';
import { ANALYTICS_FIGURES_DEFAULT_DAYS } from '@shared/schemas/analytics';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useAnalyticsFigures } from '../api/get-analytics-figures';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/analytics.module.css';
import { FiguresView } from '../components/figures-view';

/** The periods offered, in days (the route takes 7 to 90). */
const PERIODS = [7, ANALYTICS_FIGURES_DEFAULT_DAYS, 90] as const;

function periodFrom(value: string | null): number {
  const days = Number(value);
  return (PERIODS as readonly number[]).includes(days) ? days : ANALYTICS_FIGURES_DEFAULT_DAYS;
}

const formatGeneratedAt = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

/**
 * /analytics : the product's figures at a glance, for superusers. They come from the stored
 * events (daily aggregates the analytics job writes), so they are as fresh as its last run,
 * which the page says.
 */
export function AnalyticsPage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const [searchParams, setSearchParams] = useSearchParams();
  const days = periodFrom(searchParams.get('days'));
  const allowed = user?.isSuperUser === true;
  const figures = useAnalyticsFigures(days, allowed);

  let content;
  if (userPending) {
    content = <PageSpinner label="Loading the figures" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to see the figures">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (!allowed) {
    content = (
      <EmptyState title="You are not allowed to see this page" icon="!">
        Only the platform&apos;s superusers see its analytics.
      </EmptyState>
    );
  } else if (figures.isPending) {
    content = <PageSpinner label="Loading the figures" />;
  } else if (figures.isError) {
    content = <ErrorState title="The figures could not be loaded" error={figures.error} onRetry={() => void figures.refetch()} />;
  } else {
    content = (
      <>
        <fieldset className={styles.periods}>
          <legend>Period</legend>
          {PERIODS.map((period) => (
            <Button
              key={period}
              variant={period === days ? 'primary' : 'secondary'}
              size="small"
              aria-pressed={period === days}
              onClick={() => setSearchParams(period === ANALYTICS_FIGURES_DEFAULT_DAYS ? {} : { days: String(period) })}
            >
              Last {period} days
            </Button>
          ))}
        </fieldset>
        <p className={pageStyles.muted} role="status">
          {figures.data.generatedAt
            ? `Figures as of ${formatGeneratedAt(figures.data.generatedAt)}.`
            : 'No figures yet: the analytics job has not aggregated any events.'}
        </p>
        <FiguresView figures={figures.data} />
      </>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Analytics · ${APP_NAME}` }} />
      <div className={pageStyles.widePage}>
        <header className={pageStyles.header}>
          <h1 className={pageStyles.title}>Analytics</h1>
          <p className={pageStyles.lede}>What people do on {APP_NAME}, from the events the web app sends.</p>
        </header>
        {content}
      </div>
    </>
  );
}
