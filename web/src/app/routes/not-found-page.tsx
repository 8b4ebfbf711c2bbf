import { useLocation } from 'react-router';
import { PrefetchLink as Link } from '../../components/prefetch-link';
import { PageMeta } from '../../components/page-meta';
import { NotFoundState, StateLinks } from '../../components/state-message';
import { APP_NAME } from '@shared/constants';
import styles from './content-page.module.css';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className={styles.page}>
      <PageMeta seo={{ title: `Page not found · ${APP_NAME}` }} />
      <NotFoundState title="Page not found">
        <p>
          There is no page at <code>{pathname}</code>. It may have moved, or the link may be mistyped.
        </p>
        <StateLinks>
          <Link to="/">Back to the rankings</Link>
          <Link to="/topics">Browse topics</Link>
        </StateLinks>
      </NotFoundState>
    </section>
  );
}
