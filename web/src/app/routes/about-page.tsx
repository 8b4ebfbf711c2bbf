import { PrefetchLink as Link } from '../../components/prefetch-link';
import { PageMeta } from '../../components/page-meta';
import { ACTIVE_WINDOW_DAYS, APP_NAME, GROWTH_WINDOW_DAYS } from '@shared/constants';
import styles from './content-page.module.css';

export function AboutPage() {
  return (
    <article className={styles.page}>
      <PageMeta
        seo={{
          title: `About ${APP_NAME}`,
          description: `How ${APP_NAME} ranks blog publications: followers, activity in the last ${ACTIVE_WINDOW_DAYS} days and growth over ${GROWTH_WINDOW_DAYS} days, updated hourly.`,
        }}
      />
      <p className={styles.eyebrow}>About</p>
      <h1 className={styles.title}>What {APP_NAME} measures</h1>
      <p className={styles.lead}>
        {APP_NAME} ranks blog publications, the multi-writer blogs that readers follow, by how many followers they have and how
        fast they are growing. It helps writers find where to submit and readers find what to follow.
      </p>

      <dl className={styles.definitions}>
        <div>
          <dt>Most followed</dt>
          <dd>
            Publications ordered by their number of followers. <Link to="/">See the ranking</Link>.
          </dd>
        </div>
        <div>
          <dt>Active</dt>
          <dd>
            A publication is active when it published a post in the last {ACTIVE_WINDOW_DAYS} days. Active rankings leave out
            publications that have gone quiet. <Link to="/active">Active publications</Link>.
          </dd>
        </div>
        <div>
          <dt>Fastest growing</dt>
          <dd>
            Publications ordered by the followers they gained over the last {GROWTH_WINDOW_DAYS} days. When two gained the same
            number, the one that grew more in percentage comes first. <Link to="/growing">Fastest growing</Link>, or only the{' '}
            <Link to="/growing/active">active ones</Link>.
          </dd>
        </div>
        <div>
          <dt>Recently active</dt>
          <dd>
            Publications ordered by their latest post, newest first. It also ranks sites that publish an RSS or Atom feed but show
            no follower count, which appear on no other ranking. <Link to="/recent">Recently active</Link>.
          </dd>
        </div>
        <div>
          <dt>Topics</dt>
          <dd>
            Each publication is listed under the topics it writes about, with its own most followed and fastest growing rankings.{' '}
            <Link to="/topics">Browse topics</Link>.
          </dd>
        </div>
      </dl>

      <h2 className={styles.subtitle}>How fresh is it?</h2>
      <p>
        Follower counts are collected every day and the rankings are updated hourly, so a publication that takes off shows up the
        same day.
      </p>
    </article>
  );
}
